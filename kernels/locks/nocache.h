/* SPDX-License-Identifier: MIT */
/*
 * nocache: CPUs opt out of per-CPU charge caching, as proposed in the review
 * of seed 000 ("isolated CPUs can simply opt out from the pcp caching").
 * On a CPU with this->nocache, every charge and uncharge goes to the
 * page_counter atomics and object bytes to the objcg's shared remainder;
 * elsewhere it is local_lock. Which CPUs opt out is the nocache knob: all
 * of them, or the isolated ones only.
 */
#ifndef PCB_LOCKS_NOCACHE_H
#define PCB_LOCKS_NOCACHE_H

#include "local_lock.h"

#undef MEMCG_STOCK_DESIGN
#define MEMCG_STOCK_DESIGN	nocache
#define MEMCG_STOCK_NOCACHE	1

#endif
