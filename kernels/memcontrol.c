/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memcontrol.h"

static struct mem_cgroup *memcg_alloc(unsigned int id, struct mem_cgroup *parent)
{
	struct mem_cgroup *memcg;

	memcg = aligned_alloc(SMP_CACHE_BYTES,
			      (sizeof(*memcg) + SMP_CACHE_BYTES - 1) & ~(size_t)(SMP_CACHE_BYTES - 1));
	if (!memcg)
		return NULL;
	memset(memcg, 0, sizeof(*memcg));
	memcg->css.id = id;
	memcg->css.parent = parent ? &parent->css : NULL;
	memcg->level = parent ? parent->level + 1 : 0;
	page_counter_init(&memcg->memory, parent ? &parent->memory : NULL);
	return memcg;
}

int memcg_tree_create(struct memcg_tree *tree, int depth, int nr_leaves)
{
	struct mem_cgroup *parent = NULL;
	int i;

	memset(tree, 0, sizeof(*tree));
	if (depth < 2 || nr_leaves < 1 || depth - 1 + nr_leaves > PCB_MAX_MEMCG)
		return -EINVAL;
	tree->depth = depth;
	tree->nr_leaves = nr_leaves;
	tree->memcg = calloc((size_t)(depth - 1 + nr_leaves), sizeof(*tree->memcg));
	if (!tree->memcg)
		return -ENOMEM;
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
	for (int i = 0; i < tree->nr; i++)
		free(tree->memcg[i]);
	free(tree->memcg);
	memset(tree, 0, sizeof(*tree));
}

long memcg_css_refs(const struct mem_cgroup *memcg, struct pcb_cpu *const *cpus, int nr)
{
	long sum = 0;

	for (int i = 0; i < nr; i++)
		sum += cpus[i]->css_ref[memcg->css.id];
	return sum;
}
