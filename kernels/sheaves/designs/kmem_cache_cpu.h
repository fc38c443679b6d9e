/* SPDX-License-Identifier: MIT */
/*
 * kmem_cache_cpu: the fast path sheaves replaced, mm/slub.c v6.8 (before
 * sheaves; cpu_slab.h): a frozen CPU slab whose freelist the CPU keeps
 * with a transaction id, taken and given back by one this_cpu_cmpxchg16b()
 * with no lock and no preempt count (slab_alloc_node()'s and
 * do_slab_free()'s fast paths), local_lock_irqsave() on the slow path. A
 * cache's flush (flush_all_cpus_locked()) queues flush_cpu_slab() with
 * queue_work_on() on every CPU with a CPU slab and waits in flush_work().
 * Built without CONFIG_SLUB_CPU_PARTIAL: no per-CPU partial slabs.
 */
#ifndef PCB_SHEAVES_DESIGN_KMEM_CACHE_CPU_H
#define PCB_SHEAVES_DESIGN_KMEM_CACHE_CPU_H

#define DESIGN_SUMMARY "the lockless kmem_cache_cpu freelist (cmpxchg16b with a tid) sheaves " \
		       "replaced; a cache's flush queues work on each CPU with a CPU slab"
#define DESIGN_FOLLOWS "mm/slub.c v6.8, slab_alloc_node() and do_slab_free() before sheaves, " \
		       "without CONFIG_SLUB_CPU_PARTIAL"
#define DESIGN_PROMISE "every CPU slab deactivated when kmem_cache_shrink() returns (it " \
		       "waits in flush_work() for the work it queued)"
#define DESIGN_UNAVAILABLE sheaves_unavailable

#define SHEAVES_DRAIN_HEADER "drain_work.h"
#define SHEAVES_CPU_SLAB 1
#define PCS_LOCK_NAME "local_lock_t"

#endif
