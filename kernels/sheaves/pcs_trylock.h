/* SPDX-License-Identifier: MIT */
/*
 * The kernel's lock in struct slub_percpu_sheaves (mm/slub.c):
 * local_trylock_t, taken with local_trylock() on the hot paths and
 * local_lock() by the owner's flush, no interrupt masking. For the designs
 * that keep it (designs/local_trylock.h, designs/rcu.h).
 */
#ifndef PCB_SHEAVES_PCS_TRYLOCK_H
#define PCB_SHEAVES_PCS_TRYLOCK_H

#include "../locks/local_trylock.h"

typedef local_trylock_t pcs_lock_t;
#define PCS_LOCK_NAME "local_trylock_t"

#define pcs_lock_init(cpu, pcs) ((void)(cpu), local_trylock_init(&(pcs)->lock))
#define pcs_trylock(this, pcs) local_trylock(this, &(pcs)->lock)
#define pcs_lock(this, pcs) local_lock(this, &(pcs)->lock)
#define pcs_unlock(this, pcs) local_unlock(this, &(pcs)->lock)

#endif
