/* SPDX-License-Identifier: MIT */
/*
 * The charge invariant, checked at quiescent points. For every memcg m:
 *   page_counter usage(m) = pages workers hold inside m
 *                         + pages stocked for memcgs inside m
 *                         + object bytes inside m / PAGE_SIZE
 * where object bytes are those of allocated objects, of object stocks and
 * of each objcg's shared remainder (and must come to whole pages); css and
 * objcg references equal those held by charges and by stocks caching them;
 * MEMCG_KMEM counts the object pages and the slab statistics plus the bytes
 * stocks still hold equal the allocated object bytes.
 */
#include <stdio.h>

#include "memcg_model.h"

/* every stock a CPU has: its own and, with QSBR, its spare */
static int stocks_of(const struct pcb_cpu *cpu, const void *out[2])
{
	int n = 0;

	if (cpu->stock)
		out[n++] = cpu->stock;
	if (cpu->stock_spare)
		out[n++] = cpu->stock_spare;
	return n;
}

/* object bytes belonging to memcg alone: allocated, stocked, remainder */
static long obj_bytes(const struct pcb_quiescent *q, const struct mem_cgroup *memcg, long *slab)
{
	long bytes = atomic_load(&memcg->objcg->nr_charged_bytes), allocated = 0, stocked_slab = 0;

	for (int i = 0; i < q->nr_workers; i++)
		allocated += memcg_worker(q->w[i])->objs[memcg->css.id] *
			     (long)memcg_worker(q->w[i])->obj_size;
	for (int c = 0; c < q->nr_cpus; c++) {
		const void *st[2];
		int n = stocks_of(q->cpus[c], st);

		for (int s = 0; s < n; s++) {
			struct memcg_stock_view view;

			memcg_ops(q->v)->obj_view(st[s], memcg->objcg, &view);
			bytes += view.nr_bytes;
			stocked_slab += view.slab;
		}
	}
	*slab = memcg_stat_sum(memcg, NR_SLAB_RECLAIMABLE_B, q->cpus, q->nr_cpus) +
		memcg_stat_sum(memcg, NR_SLAB_UNRECLAIMABLE_B, q->cpus, q->nr_cpus) +
		stocked_slab - allocated;
	return bytes + allocated;
}

/* what usage(memcg) counts: the subtree's held, stocked and object pages */
static long expected_usage(const struct memcg_tree *tree, const struct pcb_quiescent *q,
			   struct mem_cgroup *memcg)
{
	long expect = 0;

	for (int d = 0; d < tree->nr; d++) {
		struct mem_cgroup *desc = tree->memcg[d];
		long dslab;

		if (!mem_cgroup_is_descendant(desc, memcg))
			continue;
		expect += obj_bytes(q, desc, &dslab) / (long)PAGE_SIZE;
		for (int i = 0; i < q->nr_workers; i++)
			expect += memcg_worker(q->w[i])->held[desc->css.id];
		for (int c = 0; c < q->nr_cpus; c++) {
			const void *st[2];
			int n = stocks_of(q->cpus[c], st);

			for (int s = 0; s < n; s++)
				expect += memcg_ops(q->v)->stock_pages(st[s], desc);
		}
	}
	return expect;
}

/* css and objcg references of a memcg that is not the root: its charges' and stocks' */
static int check_refs(const struct pcb_quiescent *q, struct mem_cgroup *memcg,
		      char *msg, size_t len)
{
	long refs_expect = 0, objrefs_expect = 0;

	for (int i = 0; i < q->nr_workers; i++)
		refs_expect += memcg_worker(q->w[i])->css_held[memcg->css.id];
	for (int c = 0; c < q->nr_cpus; c++) {
		const void *st[2];
		int n = stocks_of(q->cpus[c], st);

		for (int s = 0; s < n; s++) {
			struct memcg_stock_view view;

			refs_expect += memcg_ops(q->v)->stock_refs(st[s], memcg);
			memcg_ops(q->v)->obj_view(st[s], memcg->objcg, &view);
			objrefs_expect += view.refs;
		}
	}
	if (memcg_css_refs(memcg, q->cpus, q->nr_cpus) != refs_expect) {
		snprintf(msg, len, "memcg level %d (id %u): %ld css references, expected %ld",
			 memcg_level(memcg), memcg->css.id,
			 memcg_css_refs(memcg, q->cpus, q->nr_cpus), refs_expect);
		return -1;
	}
	if (memcg_objcg_refs(memcg, q->cpus, q->nr_cpus) != objrefs_expect) {
		snprintf(msg, len, "memcg level %d (id %u): %ld objcg references, expected %ld",
			 memcg_level(memcg), memcg->css.id,
			 memcg_objcg_refs(memcg, q->cpus, q->nr_cpus), objrefs_expect);
		return -1;
	}
	return 0;
}

int memcg_check_charges(const struct memcg_tree *tree, const struct pcb_quiescent *q,
			char *msg, size_t len)
{
	for (int m = 0; m < tree->nr; m++) {
		struct mem_cgroup *memcg = tree->memcg[m];
		long usage = (long)page_counter_read(&memcg->memory), expect, slab;
		long bytes = obj_bytes(q, memcg, &slab);
		long kmem = memcg_stat_sum(memcg, MEMCG_KMEM, q->cpus, q->nr_cpus);

		if (bytes % (long)PAGE_SIZE) {
			snprintf(msg, len, "memcg level %d (id %u): %ld object bytes are not whole pages",
				 memcg_level(memcg), memcg->css.id, bytes);
			return -1;
		}
		if (kmem != bytes / (long)PAGE_SIZE) {
			snprintf(msg, len, "memcg level %d (id %u): MEMCG_KMEM %ld, object pages %ld",
				 memcg_level(memcg), memcg->css.id, kmem, bytes / (long)PAGE_SIZE);
			return -1;
		}
		if (slab) {
			snprintf(msg, len, "memcg level %d (id %u): slab statistics off by %ld bytes",
				 memcg_level(memcg), memcg->css.id, slab);
			return -1;
		}
		/* __mod_memcg_lruvec_state() updates the memcg and its lruvec together */
		for (int idx = NR_SLAB_RECLAIMABLE_B; idx <= NR_SLAB_UNRECLAIMABLE_B; idx++) {
			long in_memcg = memcg_stat_sum(memcg, idx, q->cpus, q->nr_cpus);
			long in_lruvec = memcg_lruvec_stat_sum(memcg, idx, q->cpus, q->nr_cpus);

			if (in_memcg != in_lruvec) {
				snprintf(msg, len, "memcg level %d (id %u): slab statistic %d is %ld in "
					 "the memcg, %ld in its lruvec", memcg_level(memcg),
					 memcg->css.id, idx, in_memcg, in_lruvec);
				return -1;
			}
		}
		/* usage counts the whole subtree */
		expect = expected_usage(tree, q, memcg);
		if (usage != expect) {
			snprintf(msg, len, "memcg level %d (id %u): page_counter usage %ld, "
				 "but held + stocked + object pages are %ld", memcg_level(memcg),
				 memcg->css.id, usage, expect);
			return -1;
		}
		/* the root is CSS_NO_REF */
		if (!mem_cgroup_is_root(memcg) && check_refs(q, memcg, msg, len) < 0)
			return -1;
	}
	snprintf(msg, len, "ok");
	return 0;
}

unsigned long memcg_stock_pages_under(const struct pcb_variant *v, const void *stock,
				    const struct memcg_tree *tree, const struct mem_cgroup *root)
{
	unsigned long pages = 0;

	for (int m = 0; m < tree->nr; m++)
		if (!root || mem_cgroup_is_descendant(tree->memcg[m], (struct mem_cgroup *)root))
			pages += memcg_ops(v)->stock_pages(stock, tree->memcg[m]);
	return pages;
}

bool memcg_stock_empty(const struct pcb_variant *v, const void *stock,
		     const struct memcg_tree *tree)
{
	struct memcg_stock_view view;

	memcg_ops(v)->obj_view(stock, NULL, &view);
	return !view.refs && !memcg_stock_pages_under(v, stock, tree, NULL);
}
