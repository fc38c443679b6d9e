/* SPDX-License-Identifier: MIT */
/*
 * spinlock_cc: the spinlock design with seed 000's contention instrument
 * (its section 2.3): "On top of the patched version, I replaced the
 * spin_lock_irqsave() on functions that use the memcg_stock with
 * spin_lock_irqsave_cc()", a spin_trylock_irqsave() first and, where it
 * fails, the cycles until spin_lock_irqsave() took the lock. The seed's
 * cycle table (2.2) ran without it (spinlock.h); this is the build its
 * contention count came from, and what the instrument itself costs the
 * fast path is the difference between the two.
 */
#ifndef PCB_MEMCG_DESIGN_SPINLOCK_CC_H
#define PCB_MEMCG_DESIGN_SPINLOCK_CC_H

#include "spinlock.h"

#undef DESIGN_SUMMARY
#undef DESIGN_FOLLOWS
#define DESIGN_SUMMARY "spinlock taken with seed 000's spin_lock_irqsave_cc(): a trylock first"
#define DESIGN_FOLLOWS "seed 000: \"Introduce memcg_stock_pcp remote draining\" v2, patches 1-4, " \
		       "with the contention instrument of its 2.3"

#undef memcg_stock_lock
#define memcg_stock_lock(this, stock) spin_lock_irqsave_cc(this, &(stock)->stock_lock, __func__)

#endif
