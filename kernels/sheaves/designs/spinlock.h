/* SPDX-License-Identifier: MIT */
/*
 * spinlock: seed 000's answer asked of the sheaves, a per-CPU spinlock so
 * that the flusher empties each CPU's sheaves itself, as the QPW series
 * has it with its spinlocks on (Bras and Tosatti, "slub: apply new
 * pw_queue_on() interface", v4, 2026): spinlock_t where local_trylock_t
 * was, the first word of struct slub_percpu_sheaves (4 bytes; main still
 * at 8, the struct still 32). The owner's hot paths take it with
 * spin_trylock() (pw_trylock_local(): the preempt count, a cmpxchg, the
 * one-byte release); one that fails, the flusher holding it, goes to the
 * slabs, counted as a contention. A cache's flush takes each CPU's lock
 * from the calling CPU and flushes its sheaves there (pcs_flush_all(s,
 * cpu)), queuing no work.
 */
#ifndef PCB_SHEAVES_DESIGN_SPINLOCK_H
#define PCB_SHEAVES_DESIGN_SPINLOCK_H

#include "../../locks/spinlock.h"

#define DESIGN_SUMMARY "spinlock_t in slub_percpu_sheaves, spin_trylock() on the hot path; " \
		       "a cache's flush empties every CPU's sheaves from the caller"
#define DESIGN_FOLLOWS "seed 000's remote drain on mm/slub.c's sheaves, as the QPW series' " \
		       "pw_lock with its spinlocks (Bras, Tosatti, v4, 2026)"
#define DESIGN_PROMISE "every CPU's sheaves empty when kmem_cache_shrink() returns"
#define DESIGN_UNAVAILABLE sheaves_unavailable

#define SHEAVES_DRAIN_HEADER "drain_remote.h"

typedef spinlock_t pcs_lock_t;
#define PCS_LOCK_NAME "spinlock_t"

#define pcs_lock_init(cpu, pcs) do { (void)(cpu); spin_lock_init(&(pcs)->lock); } while (0)
/* counted under the kernel function the macro expands in (__func__) */
#define pcs_trylock(this, pcs) spin_trylock_cc(this, &(pcs)->lock, __func__)
#define pcs_lock(this, pcs) spin_lock(this, &(pcs)->lock, __func__)
#define pcs_unlock(this, pcs) spin_unlock(this, &(pcs)->lock)

#endif
