/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "../kernels/memcontrol.h"
#include "check.h"

int pcb_check_charges(const struct pcb_design *d, const struct memcg_tree *tree,
		      struct pcb_worker *const *w, int nr, char *msg, size_t len)
{
	struct pcb_cpu *cpus[nr > 0 ? nr : 1];

	for (int i = 0; i < nr; i++)
		cpus[i] = w[i]->cpu;

	for (int m = 0; m < tree->nr; m++) {
		struct mem_cgroup *memcg = tree->memcg[m];
		long expect = 0, usage = (long)page_counter_read(&memcg->memory);
		long refs_expect = 0, refs;

		for (int i = 0; i < nr; i++) {
			const struct mem_cgroup *cached = d->stock_cached(w[i]->cpu->stock);

			if (mem_cgroup_is_descendant(w[i]->memcg, memcg))
				expect += w[i]->held;
			if (cached && mem_cgroup_is_descendant((struct mem_cgroup *)cached, memcg))
				expect += d->stock_pages(w[i]->cpu->stock, cached);
			if (cached == memcg)
				refs_expect++;
			if (w[i]->memcg == memcg)
				refs_expect += w[i]->css_held;
		}
		if (usage != expect) {
			snprintf(msg, len, "memcg level %d (id %u): page_counter usage %ld, "
				 "but held + stocked pages are %ld", memcg->level, memcg->css.id,
				 usage, expect);
			return -1;
		}
		if (mem_cgroup_is_root(memcg))
			continue;	/* CSS_NO_REF */
		refs = memcg_css_refs(memcg, cpus, nr);
		if (refs != refs_expect) {
			snprintf(msg, len, "memcg level %d (id %u): %ld css references, expected %ld",
				 memcg->level, memcg->css.id, refs, refs_expect);
			return -1;
		}
	}
	snprintf(msg, len, "ok");
	return 0;
}
