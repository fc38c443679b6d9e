/* SPDX-License-Identifier: MIT */
/*
 * The RCU-based drain of the RFC seed 004 links, with liburcu QSBR in
 * userspace and the kernel's own RCU in the kernel backend: each CPU has
 * a spare cache; the drainer swaps each cache for the CPU's empty spare
 * (rcu_xchg_pointer(), rcu_replace_pointer()), waits in synchronize_rcu(),
 * then owns the old one. A worker is a registered reader, online while
 * its loop runs and offline otherwise, and reports a quiescent state
 * between two operations.
 * A model's drain_qsbr.h includes this and defines its drain with
 * qsbr_swap_in_spare() and qsbr_wait_swapped().
 */
#ifndef PCB_DRAIN_QSBR_H
#define PCB_DRAIN_QSBR_H

#ifndef __KERNEL__
#include <urcu-qsbr.h>
#endif

#include "../percpu.h"

#define PCB_DRAIN_FLAVOUR { .name = "qsbr", .spare_stock = true }

#ifdef __KERNEL__
/*
 * The kernel backend: the kernel's own RCU (include/linux/rcupdate.h).
 * QSBR's reader is online, inside one read-side section, from one
 * quiescent state to the next; the kernel's equivalent is a section
 * from rcu_read_lock() to rcu_read_unlock(), ended and begun again where
 * liburcu reports a quiescent state (between two operations; with
 * CONFIG_PREEMPT_RCU the unlock reports none, and the tick rarely finds
 * the worker there, so that a grace period waits for RCU to have it
 * rescheduled at its yield: docs/kernel.md), and around the
 * worker's yield between chunks (the module's pcb_cond_resched()), so
 * that the stock pointer an operation read before its irq-off section is
 * used inside the same section. The RFC reads it under
 * local_lock_irqsave(), which synchronize_rcu() also waits for. The
 * module keeps the section (pcb/preempt.h's pcb_rcu_reader_begin()).
 */
static inline void qsbr_reader_online(void)
{
	pcb_rcu_reader_begin();
}

static inline void qsbr_reader_offline(void)
{
	pcb_rcu_reader_end();
}

static inline void qsbr_reader_quiescent(void)
{
	rcu_read_unlock();
	rcu_read_lock();
}

/* no registration: every kernel thread is an RCU reader when it says so */
#define qsbr_thread_start NULL
#define qsbr_thread_stop NULL

/* rcu_replace_pointer(): drainers are serialized by the model's drain mutex */
#define qsbr_swap_pointer(pp, spare) rcu_replace_pointer(*(pp), (spare), true)
#else
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

#define qsbr_swap_pointer(pp, spare) rcu_xchg_pointer((pp), (spare))
#endif

/* readers find the CPU's empty spare from now on; the old cache is returned */
static inline void *qsbr_swap_in_spare(struct pcb_cpu *cpu)
{
	void *old;

	/* the owner's last section, and the last drain of this spare, happen before */
	pcb_tsan_release(&cpu->preempt_count);
	pcb_tsan_release(&cpu->stock);
	old = qsbr_swap_pointer(&cpu->stock, cpu->stock_spare);
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
		this->h.remote_drains += swapped[i] != this;
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
