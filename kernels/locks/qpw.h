/* SPDX-License-Identifier: MIT */
/*
 * qpw_lock_t of Queue PerCPU Work (Leonardo Bras and Marcelo Tosatti,
 * "Introduce QPW for per-cpu operations", 2026): local_lock_irqsave() where
 * the lock stays local, spin_lock_irqsave() on the CPU's spinlock where
 * other CPUs take it (queue_percpu_work_on() then runs the work on the
 * caller, under that lock). The series chooses with one boot parameter
 * (qpw=) patched into a static branch; the models choose per CPU at start,
 * the spinlock on the CPUs named isolated, and the choice lives in the
 * lock, as qpw_lock(lock, cpu) takes the lock of the CPU it names: owner
 * and drainer decide by the same word, which the owner's hot path already
 * has in cache.
 */
#ifndef PCB_LOCKS_QPW_H
#define PCB_LOCKS_QPW_H

#include "irq_off.h"
#include "local_trylock.h"
#include "spinlock.h"

typedef struct {
	spinlock_t sl;
	bool spins;		/* this CPU's choice: its spinlock, or local_lock */
} qpw_lock_t;

static inline void qpw_lock_init(qpw_lock_t *l, const struct pcb_cpu *cpu)
{
	spin_lock_init(&l->sl);
	l->spins = cpu->isolated;
}

/* qpw_lock_irqsave(), counted under fn when contended */
#define qpw_lock_irqsave(this, l, fn)						\
	((l)->spins ? spin_lock_irqsave(this, &(l)->sl, fn) : local_lock_irqsave_model(this))

#define qpw_unlock_irqrestore(this, l, flags)					\
	do {									\
		if ((l)->spins)							\
			spin_unlock_irqrestore(this, &(l)->sl, flags);		\
		else								\
			local_unlock_irqrestore_model(this, flags);		\
	} while (0)

/*
 * qpw_trylock_t: the series' pw_trylock_t as SLUB's percpu sheaves take it
 * ("slub: apply new pw_queue_on() interface", v4, 2026): local_trylock_t
 * where the lock stays local, the CPU's spinlock where other CPUs take it;
 * pw_trylock_local() on the owner's hot path, pw_lock(lock, cpu) from any
 * CPU. The choice per CPU, as qpw_lock_t's.
 */
typedef struct {
	spinlock_t sl;
	bool spins;		/* this CPU's choice: its spinlock, or local_trylock_t */
	local_trylock_t lt;
} qpw_trylock_t;

static inline void qpw_trylock_init(qpw_trylock_t *l, const struct pcb_cpu *cpu)
{
	spin_lock_init(&l->sl);
	l->spins = cpu->isolated;
	local_trylock_init(&l->lt);
}

/* pw_trylock_local(): spin_trylock() (a failure counted under fn) or local_trylock() */
static inline bool qpw_trylock(struct pcb_cpu *this, qpw_trylock_t *l, const char *fn)
{
	return l->spins ? spin_trylock_cc(this, &l->sl, fn) : local_trylock(this, &l->lt);
}

/* pw_lock(lock, cpu), counted under fn when contended */
#define qpw_lock(this, l, fn)							\
	do {									\
		if ((l)->spins)							\
			spin_lock(this, &(l)->sl, fn);			\
		else								\
			local_lock(this, &(l)->lt);				\
	} while (0)

static inline void qpw_unlock(struct pcb_cpu *this, qpw_trylock_t *l)
{
	if (l->spins)
		spin_unlock(this, &l->sl);
	else
		local_unlock(this, &l->lt);
}

#endif
