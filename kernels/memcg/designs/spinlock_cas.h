/* SPDX-License-Identifier: MIT */
/*
 * spinlock_cas: the spinlock design with Concurrency Kit's CAS lock for
 * spinlock_t, a 32-bit word written whole at unlock, in place of the
 * qspinlock's one-byte release store. Nothing else differs: what the pair
 * shows is what the qspinlock's byte unlock costs the next lock's cmpxchg.
 */
#ifndef PCB_MEMCG_DESIGN_SPINLOCK_CAS_H
#define PCB_MEMCG_DESIGN_SPINLOCK_CAS_H

#define PCB_SPINLOCK_CAS 1
#include "spinlock.h"

#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#define DESIGN_SUMMARY "spinlock, with a 32-bit CAS lock (Concurrency Kit) for the qspinlock"
#define DESIGN_FOLLOWS "seed 000's series, spinlock_t as a word stored whole at unlock " \
		       "(the qspinlock stores one byte)"
/* the comparison is with the qspinlock of userspace: the kernel has its own */
#define DESIGN_KERNEL_REFUSED "Concurrency Kit's CAS lock is a userspace library's " \
			      "stand-in; the kernel backend runs the kernel's own spinlock_t " \
			      "(design spinlock)"

#endif
