/* SPDX-License-Identifier: MIT */
/*
 * local_trylock: the kernel's percpu sheaves (mm/slub.c, Vlastimil Babka,
 * "slab: add opt-in caching layer of percpu sheaves", v6.18, and every
 * cache's since): local_trylock_t in struct slub_percpu_sheaves, a
 * one-byte owner flag beside the preempt count, no interrupt masking and
 * no atomics; a failed trylock (an interrupt inside the section) goes to
 * the slabs. A cache's flush (flush_all_cpus_locked()) queues
 * flush_cpu_sheaves() with queue_work_on() on every CPU whose sheaves
 * hold something, isolated ones too, and waits for each in flush_work().
 */
#ifndef PCB_SHEAVES_DESIGN_LOCAL_TRYLOCK_H
#define PCB_SHEAVES_DESIGN_LOCAL_TRYLOCK_H

#include "../pcs_trylock.h"

#define DESIGN_SUMMARY "local_trylock_t in slub_percpu_sheaves; a cache's flush queues work " \
		       "on each CPU with sheaves and flushes it"
#define DESIGN_FOLLOWS "mm/slub.c: percpu sheaves (Babka, v6.18), as every cache's since"
#define DESIGN_PROMISE "every CPU's sheaves empty when kmem_cache_shrink() returns (it " \
		       "waits in flush_work() for the work it queued)"
#define DESIGN_UNAVAILABLE sheaves_unavailable

#define SHEAVES_DRAIN_HEADER "drain_work.h"

#endif
