/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memcontrol.h"

DEFINE_MUTEX(percpu_charge_mutex);

static struct pglist_data memcg_pgdat[MEMCG_NR_NODES] = { { .node_id = 0 } };
struct pglist_data *const memcg_node_data[MEMCG_NR_NODES] = { &memcg_pgdat[0] };
atomic_int stats_flush_threshold;
int pcb_nr_online_cpus = 1;

static struct mem_cgroup *memcg_alloc(unsigned int id, struct mem_cgroup *parent)
{
	struct mem_cgroup *memcg;
	int level;

	memcg = aligned_alloc(SMP_CACHE_BYTES,
			      (sizeof(*memcg) + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1));
	if (!memcg)
		return NULL;
	memset(memcg, 0, sizeof(*memcg));
	level = parent ? parent->css.cgroup->level + 1 : 0;
	memcg->css.cgroup = calloc(1, sizeof(struct cgroup) + (size_t)(level + 1) * sizeof(struct cgroup *));
	memcg->objcg = aligned_alloc(SMP_CACHE_BYTES, sizeof(*memcg->objcg));
	if (!memcg->objcg || !memcg->css.cgroup) {
		free(memcg->objcg);
		free(memcg->css.cgroup);
		free(memcg);
		return NULL;
	}
	memcg->css.cgroup->level = level;
	for (int l = 0; l < level; l++)
		memcg->css.cgroup->ancestors[l] = parent->css.cgroup->ancestors[l];
	memcg->css.cgroup->ancestors[level] = memcg->css.cgroup;
	memset(memcg->objcg, 0, sizeof(*memcg->objcg));
	memcg->objcg->ref_id = PCB_MAX_MEMCG_IDS + id;
	memcg->objcg->memcg = memcg;
	memcg->css.id = id;
	memcg->css.flags = parent ? 0 : CSS_NO_REF;
	memcg->css.refcnt.percpu_count_ptr = (unsigned long)id << PERCPU_REF_SLOT_SHIFT;
	memcg->objcg->refcnt.percpu_count_ptr =
		(unsigned long)memcg->objcg->ref_id << PERCPU_REF_SLOT_SHIFT;
	memcg->pn.memcg = memcg;
	memcg->nodeinfo[0] = &memcg->pn;
	memcg->css.parent = parent ? &parent->css : NULL;
	page_counter_init(&memcg->memory, parent ? &parent->memory : NULL);
	page_counter_init(&memcg->swap, parent ? &parent->swap : NULL);
	return memcg;
}

int memcg_tree_create(struct memcg_tree *tree, int depth, int nr_leaves)
{
	struct mem_cgroup *parent = NULL;
	int i;

	memset(tree, 0, sizeof(*tree));
	if (depth < 2 || nr_leaves < 1 || depth - 1 + nr_leaves > PCB_MAX_MEMCG_IDS)
		return -EINVAL;
	tree->nr_nodes = MEMCG_NR_NODES;
	tree->pgdat = NODE_DATA(0);
	tree->depth = depth;
	tree->nr_leaves = nr_leaves;
	tree->memcg = calloc((size_t)(depth - 1 + nr_leaves), sizeof(*tree->memcg));
	if (!tree->memcg)
		goto nomem;
	for (i = 0; i < depth - 1; i++) {
		parent = memcg_alloc((unsigned int)i, parent);
		if (!parent)
			goto nomem;
		tree->memcg[tree->nr++] = parent;
	}
	tree->leaf = tree->memcg + tree->nr;
	for (i = 0; i < nr_leaves; i++) {
		struct mem_cgroup *leaf = memcg_alloc((unsigned int)tree->nr, parent);

		if (!leaf)
			goto nomem;
		tree->memcg[tree->nr++] = leaf;
	}
	return 0;
nomem:
	memcg_tree_destroy(tree);
	return -ENOMEM;
}

void memcg_tree_destroy(struct memcg_tree *tree)
{
	for (int i = 0; i < tree->nr; i++) {
		free(tree->memcg[i]->objcg);
		free(tree->memcg[i]->css.cgroup);
		free(tree->memcg[i]);
	}
	free(tree->memcg);
	memset(tree, 0, sizeof(*tree));
}

long memcg_css_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr)
{
	long sum = atomic_load(&memcg->css.refcnt.count);

	for (int i = 0; i < nr; i++)
		sum += memcg_cpu(cpus[i])->css_ref[memcg->css.id];
	return sum;
}

long memcg_objcg_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr)
{
	long sum = atomic_load(&memcg->objcg->refcnt.count);

	for (int i = 0; i < nr; i++)
		sum += memcg_cpu(cpus[i])->css_ref[memcg->objcg->ref_id];
	return sum;
}

/* Sums one item over the CPUs, from the memcg's counters or its lruvec's. */
static long stat_sum(const struct mem_cgroup *memcg, enum memcg_stat_item idx,
		     struct pcb_cpu *const *cpus, int nr, bool lruvec)
{
	long sum = 0;

	for (int i = 0; i < nr; i++) {
		const struct memcg_cpu *mc = memcg_cpu(cpus[i]);

		sum += (lruvec ? mc->lruvec_stat : mc->vmstat)[memcg->css.id][idx];
	}
	return sum;
}

long memcg_stat_sum(const struct mem_cgroup *memcg, enum memcg_stat_item idx,
		    struct pcb_cpu *const *cpus, int nr)
{
	return stat_sum(memcg, idx, cpus, nr, false);
}

long memcg_lruvec_stat_sum(const struct mem_cgroup *memcg, enum memcg_stat_item idx,
			   struct pcb_cpu *const *cpus, int nr)
{
	return stat_sum(memcg, idx, cpus, nr, true);
}
