/* SPDX-License-Identifier: MIT */
/*
 * nocache: CPUs opt out of per-CPU charge caching, as proposed in the review
 * of seed 000 ("isolated CPUs can simply opt out from the pcp caching").
 * On a CPU that opted out, every charge and uncharge goes to the
 * page_counter atomics and object bytes to the objcg's shared remainder;
 * elsewhere it is local_lock. Which CPUs opt out is stock.nocache: all of
 * them, or the isolated ones only. No kernel code exists for this; the
 * object path is this model's reading of "opt out".
 */
#ifndef PCB_MEMCG_DESIGN_NOCACHE_H
#define PCB_MEMCG_DESIGN_NOCACHE_H

#include "local_lock.h"

#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#undef DESIGN_PROMISE
#define DESIGN_SUMMARY "opted-out CPUs charge the page_counter every time; others use local_lock"
#define DESIGN_FOLLOWS "seed 000 review: isolated CPUs \"opt out from the pcp caching\""
#define DESIGN_PROMISE "opted-out CPUs hold nothing; the others' stocks empty once the queued " \
		       "work ran on each CPU (not when drain_all_stock() returns)"

#define MEMCG_STOCK_NOCACHE 1

#endif
