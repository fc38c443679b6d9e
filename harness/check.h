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
#ifndef PCB_CHECK_H
#define PCB_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "design.h"
#include "worker.h"

struct memcg_tree;

/*
 * w[]: the workers (what they hold); cpus[]: every modeled CPU whose stock
 * or per-CPU counters may hold something (workers' and drainers'); spares
 * of the QSBR design included. 0 if it holds; -1 with the first
 * discrepancy in msg.
 */
int pcb_check_charges(const struct pcb_variant *v, const struct memcg_tree *tree,
		      struct pcb_worker *const *w, int nr_workers,
		      struct pcb_cpu *const *cpus, int nr_cpus, char *msg, size_t len);

/* pages a stock holds for root's subtree in tree (every memcg of it: root NULL) */
unsigned long pcb_stock_pages_under(const struct pcb_variant *v, const void *stock,
				    const struct memcg_tree *tree, const struct mem_cgroup *root);
/* a stock holding no pages and no objcg */
bool pcb_stock_empty(const struct pcb_variant *v, const void *stock,
		     const struct memcg_tree *tree);

#endif
