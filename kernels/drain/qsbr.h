/* SPDX-License-Identifier: MIT */
/*
 * The RCU-based drain of the RFC seed 004 links, with liburcu QSBR: each
 * CPU has a spare cache; the drainer swaps each cache for the CPU's empty
 * spare (rcu_xchg_pointer()), waits in synchronize_rcu(), then owns the old
 * one. A worker is a registered reader, online while its loop runs and
 * offline otherwise, and reports a quiescent state between two operations.
 * A model's drain_qsbr.h includes this and defines its drain with
 * qsbr_swap_in_spare() and qsbr_wait_swapped().
 */
#ifndef PCB_DRAIN_QSBR_H
#define PCB_DRAIN_QSBR_H

#include <urcu-qsbr.h>

#include "../percpu.h"

#define PCB_DRAIN_FLAVOUR { .name = "qsbr", .spare_stock = true }

static inline void qsbr_reader_online(void)
{
	rcu_thread_online();
}

static inline void qsbr_reader_offline(void)
{
	rcu_thread_offline();
}

static inline void qsbr_reader_quiescent(void)
{
	rcu_quiescent_state();
}

/* a thread that runs a loop: registered, offline until its loop starts */
static inline void qsbr_thread_start(void)
{
	rcu_register_thread();
	rcu_thread_offline();
}

static inline void qsbr_thread_stop(void)
{
	rcu_unregister_thread();
}

/* rcu_xchg_pointer(): readers find the CPU's empty spare from now on; the old cache is returned */
static inline void *qsbr_swap_in_spare(struct pcb_cpu *cpu)
{
	void *old;

	/* the owner's last section, and the last drain of this spare, happen before */
	pcb_tsan_release(&cpu->preempt_count);
	pcb_tsan_release(&cpu->stock);
	old = rcu_xchg_pointer(&cpu->stock, cpu->stock_spare);
	cpu->stock_spare = NULL;
	return old;
}

/* after synchronize_rcu(): every owner passed a quiescent state, the old cache is the drainer's */
static inline void qsbr_take_old(struct pcb_cpu *cpu)
{
	pcb_tsan_acquire(&cpu->preempt_count);
}

/*
 * synchronize_rcu() for the caches swapped out of swapped[0..n): every
 * owner passed a quiescent state, and each old cache is the drainer's, a
 * remote drain each
 */
static inline void qsbr_wait_swapped(struct pcb_cpu *this, struct pcb_cpu *const *swapped, int n)
{
	if (!n)
		return;
	synchronize_rcu();
	for (int i = 0; i < n; i++) {
		qsbr_take_old(swapped[i]);
		this->h.remote_drains++;
	}
}

static inline void pcb_drain_between_ops(struct pcb_cpu *this)
{
	(void)this;
	qsbr_reader_quiescent();
}

#define pcb_drain_online qsbr_reader_online
#define pcb_drain_offline qsbr_reader_offline
#define PCB_DRAIN_THREAD_START qsbr_thread_start
#define PCB_DRAIN_THREAD_STOP qsbr_thread_stop

#endif
