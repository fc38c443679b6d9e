/* SPDX-License-Identifier: MIT */
/*
 * struct mem_cgroup and its css, reduced to what the per-CPU charge stock
 * touches (mm/memcontrol.c, include/linux/memcontrol.h, v6.2): the memory
 * page_counter and the css reference count. cgroup v2 is modeled, so
 * do_memsw_account() is false and memsw is never charged.
 */
#ifndef PCB_KERNELS_MEMCONTROL_H
#define PCB_KERNELS_MEMCONTROL_H

#include <stdbool.h>

#include "page_counter.h"
#include "percpu.h"

/* mm/memcontrol.c */
#define MEMCG_CHARGE_BATCH 64U

struct cgroup_subsys_state {
	unsigned int id;		/* index into pcb_cpu.css_ref[] */
	struct cgroup_subsys_state *parent;
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	int level;			/* 0 for the root */
	struct page_counter memory;
};

/* Forward types of the object stock; the fields exist for layout only. */
struct obj_cgroup;
struct pglist_data;

static inline bool mem_cgroup_is_root(const struct mem_cgroup *memcg)
{
	return memcg->css.parent == NULL;
}

static inline struct mem_cgroup *mem_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css ? (struct mem_cgroup *)((char *)css - offsetof(struct mem_cgroup, css)) : NULL;
}

static inline struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return mem_cgroup_from_css(memcg->css.parent);
}

/*
 * css_get()/css_put(): percpu_ref_get_many()/percpu_ref_put_many() in percpu
 * mode, a this_cpu_add() under rcu_read_lock(). The root css is CSS_NO_REF.
 */
static inline void css_get(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!css->parent)
		return;
	preempt_disable(this);
	this->css_ref[css->id]++;
	preempt_enable(this);
}

static inline void css_put(struct pcb_cpu *this, struct cgroup_subsys_state *css)
{
	if (!css->parent)
		return;
	preempt_disable(this);
	this->css_ref[css->id]--;
	preempt_enable(this);
}

/* mem_cgroup_is_descendant() for a hierarchy of pointers */
static inline bool mem_cgroup_is_descendant(struct mem_cgroup *memcg,
					    struct mem_cgroup *root)
{
	for (; memcg; memcg = parent_mem_cgroup(memcg))
		if (memcg == root)
			return true;
	return false;
}

/*
 * A memcg tree: the root, a chain of depth - 2 intermediate groups, then
 * nr_leaves leaves (depth 2, one leaf: root and test.slice, as in 000).
 */
struct memcg_tree {
	int nr;
	int depth;
	int nr_leaves;
	struct mem_cgroup **memcg;	/* [0] is the root */
	struct mem_cgroup **leaf;
};

int memcg_tree_create(struct memcg_tree *tree, int depth, int nr_leaves);
void memcg_tree_destroy(struct memcg_tree *tree);
/* sum of a css's per-CPU references over the given CPUs */
long memcg_css_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr);

#endif
