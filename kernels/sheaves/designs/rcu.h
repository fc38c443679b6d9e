/* SPDX-License-Identifier: MIT */
/*
 * rcu: the RFC seed 004 links, asked of the sheaves: the owner keeps the
 * kernel's local_trylock_t (whose owner flag the sheaves need against a
 * nested kmalloc_nolock() whatever the flush does), and reaches its
 * struct slub_percpu_sheaves through an RCU-protected pointer; a cache's
 * flush swaps each CPU's sheaves for its spare set (an empty main sheaf,
 * no spare), waits for a grace period and flushes the old set from the
 * calling CPU, which then becomes the CPU's spare. No work, no lock on
 * the owner but its own, and a grace period a flush. liburcu QSBR in
 * userspace (owners report a quiescent state between operations); the
 * kernel's own RCU in the kernel backend (kernels/drain/qsbr.h).
 */
#ifndef PCB_SHEAVES_DESIGN_RCU_H
#define PCB_SHEAVES_DESIGN_RCU_H

#include "../pcs_trylock.h"

#define DESIGN_SUMMARY "local_trylock_t on sheaves reached through an RCU pointer; a cache's " \
		       "flush swaps in the spare set, waits a grace period, flushes the old"
#define DESIGN_FOLLOWS "seed 004's RCU-based remote drain RFC on mm/slub.c's sheaves " \
		       "(liburcu QSBR; the kernel's RCU in pcpbench.ko)"
#define DESIGN_PROMISE "every CPU's sheaves empty when kmem_cache_shrink() returns"
#define DESIGN_UNAVAILABLE sheaves_unavailable

#define SHEAVES_DRAIN_HEADER "drain_qsbr.h"

/*
 * The owner's: the preempt count first, the read-side section a kernel's
 * synchronize_rcu() waits for, then rcu_dereference() of its sheaves,
 * then the owner flag in them
 */
#define pcs_trylock_this(this) ({						\
	struct slub_percpu_sheaves *pcs_;					\
	preempt_disable(this);							\
	pcs_ = this_cpu_pcs(this);						\
	pcb_local_trylock_raised(this, &pcs_->lock) ? pcs_ : NULL; })
#define pcs_lock_this(this) ({							\
	struct slub_percpu_sheaves *pcs_;					\
	preempt_disable(this);							\
	pcs_ = this_cpu_pcs(this);						\
	WRITE_ONCE(pcs_->lock.acquired, 1);					\
	pcs_; })

#endif
