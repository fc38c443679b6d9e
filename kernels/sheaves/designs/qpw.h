/* SPDX-License-Identifier: MIT */
/*
 * qpw: the QPW series on mm/slub.c's sheaves (Leonardo Bras and Marcelo
 * Tosatti, "slub: apply new pw_queue_on() interface", v4, 2026):
 * pw_trylock_t in struct slub_percpu_sheaves, local_trylock_t where the
 * lock stays local and the CPU's spinlock where other CPUs take it;
 * pw_queue_on() is queue_work_on() for the first kind and, for the
 * second, runs flush_cpu_sheaves() on the calling CPU under the target's
 * lock (pcs_flush_all(s, cpu)). The series chooses with a boot parameter;
 * here the choice is made once at start per CPU, the spinlock on the CPUs
 * named isolated, and kept in the lock (kernels/locks/qpw.h), as the
 * other models' qpw designs do.
 */
#ifndef PCB_SHEAVES_DESIGN_QPW_H
#define PCB_SHEAVES_DESIGN_QPW_H

#include "../../locks/qpw.h"

#define DESIGN_SUMMARY "pw_trylock_t: local_trylock_t on housekeeping CPUs, their spinlock " \
		       "on isolated ones; isolated CPUs flushed from the caller, others by work"
#define DESIGN_FOLLOWS "QPW, \"slub: apply new pw_queue_on() interface\" (Bras, Tosatti, " \
		       "v4, 2026) on mm/slub.c's sheaves"
#define DESIGN_PROMISE "every CPU's sheaves empty when kmem_cache_shrink() returns (isolated " \
		       "ones flushed in place, the others' work flushed)"
#define DESIGN_UNAVAILABLE sheaves_unavailable

#define SHEAVES_DRAIN_HEADER "drain_work.h"
#define PCB_DRAIN_QPW 1

typedef qpw_trylock_t pcs_lock_t;
#define PCS_LOCK_NAME "pw_trylock_t"

#define pcs_lock_init(cpu, pcs) qpw_trylock_init(&(pcs)->lock, cpu)
#define pcs_trylock(this, pcs) qpw_trylock(this, &(pcs)->lock, __func__)
#define pcs_lock(this, pcs) qpw_lock(this, &(pcs)->lock, __func__)
#define pcs_unlock(this, pcs) qpw_unlock(this, &(pcs)->lock)

#endif
