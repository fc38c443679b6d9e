/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "stats.h"
#include "tsc.h"
#include "xline.h"

/*
 * A side the line has not come back from for XLINE_STALL_S is off its CPU
 * for good. The probe as a whole may take far longer than one stall on a
 * loaded machine, where a move needs both threads on their CPUs at once
 * and each spends most of its time waiting for a slice: XLINE_LIMIT_S
 * bounds it there.
 */
#define XLINE_STALL_S 0.5
#define XLINE_LIMIT_S 10.0
/* a side the line has not come back to for this long naps between looks */
#define XLINE_NAP_AFTER_S 1e-3
#define XLINE_NAP_NS 50000
/* spins between two looks at the clock: a look costs more than the line's move */
#define XLINE_SPINS 256

struct xline {
	_Alignas(64) atomic_ulong v;		/* the line passed back and forth */
	_Alignas(64) atomic_int ready;		/* both threads pinned */
	atomic_int failed;
	const struct pcb_topo *topo;
	unsigned int cpu[2];
	uint64_t deadline;			/* TSC: the probe gives up */
	uint64_t stall;				/* ticks a side waits without a move */
	uint64_t nap_after;			/* ticks */
	double batch[PCB_XLINE_BATCHES];
};

/*
 * Whether the wait that began at *since (0: not yet looked) may go on: not
 * once the other side has failed, stopped moving for x->stall, or the
 * probe's time is up. A wait past x->nap_after means the other side is off
 * its CPU, preempted on a loaded machine: this side then naps between looks
 * rather than spin, leaving its CPU to what else runs there, and is put
 * back on it as soon as it wakes (CFS places a sleeper ahead of the tasks
 * that kept running), so the line moves whenever the other side has a
 * slice; spinning, both sides would need a slice at the same moment. The
 * batch that holds such a wait is stretched either way, and the median
 * leaves it out.
 */
static bool xline_alive(struct xline *x, uint64_t *since)
{
	const struct timespec nap = { .tv_nsec = XLINE_NAP_NS };
	uint64_t now = pcb_tsc_now();

	if (!*since)
		*since = now;
	if (atomic_load_explicit(&x->failed, memory_order_relaxed) ||
	    now - *since > x->stall || now > x->deadline) {
		atomic_store(&x->failed, 1);
		return false;
	}
	if (now - *since > x->nap_after)
		nanosleep(&nap, NULL);
	return true;
}

/*
 * Wait for the line to read want, a bare load loop, as fast as the line
 * comes (a pause would add its own latency to every move, and so would a
 * look at the clock before the first XLINE_SPINS spins); false once the
 * other side has gone or the probe's time is up
 */
static bool xline_wait(struct xline *x, unsigned long want)
{
	uint64_t since = 0;

	for (unsigned int spins = 0;
	     atomic_load_explicit(&x->v, memory_order_acquire) != want; spins++) {
		if (spins % XLINE_SPINS == XLINE_SPINS - 1 && !xline_alive(x, &since))
			return false;
	}
	return true;
}

/* both sides: pinned, then every odd value is the prober's and every even one the partner's */
static void *xline_side(void *arg, int side)
{
	struct xline *x = arg;
	unsigned long n = 0;
	uint64_t since = 0;

	if (pcb_topo_pin(x->topo, x->cpu[side]) < 0)
		atomic_store(&x->failed, 1);
	atomic_fetch_add(&x->ready, 1);
	while (atomic_load(&x->ready) < 2 && xline_alive(x, &since))
		__builtin_ia32_pause();
	for (int b = 0; b < PCB_XLINE_BATCHES && !atomic_load(&x->failed); b++) {
		uint64_t t0 = pcb_tsc_start();

		for (int r = 0; r < PCB_XLINE_ROUNDS; r++, n += 2) {
			if (side == 0) {
				atomic_store_explicit(&x->v, n + 1, memory_order_release);
				if (!xline_wait(x, n + 2))
					return NULL;
			} else {
				if (!xline_wait(x, n + 1))
					return NULL;
				atomic_store_explicit(&x->v, n + 2, memory_order_release);
			}
		}
		if (side == 0)
			x->batch[b] = (double)(pcb_tsc_end() - t0) / (2.0 * PCB_XLINE_ROUNDS);
	}
	return NULL;
}

static void *xline_prober(void *arg)
{
	return xline_side(arg, 0);
}

static void *xline_partner(void *arg)
{
	return xline_side(arg, 1);
}

double pcb_xline_ticks(const struct pcb_topo *topo, unsigned int a, unsigned int b,
		       double tsc_hz)
{
	struct xline *x = aligned_alloc(64, sizeof(*x));
	pthread_t t[2];
	double ticks = -1;
	int started = 0;

	if (!x || a == b) {
		free(x);
		return -1;
	}
	*x = (struct xline){ .topo = topo, .cpu = { a, b } };
	x->deadline = pcb_tsc_now() + (uint64_t)(tsc_hz * XLINE_LIMIT_S);
	x->stall = (uint64_t)(tsc_hz * XLINE_STALL_S);
	x->nap_after = (uint64_t)(tsc_hz * XLINE_NAP_AFTER_S);
	if (pthread_create(&t[0], NULL, xline_prober, x) == 0)
		started++;
	if (started == 1 && pthread_create(&t[1], NULL, xline_partner, x) == 0)
		started++;
	if (started < 2)
		atomic_store(&x->failed, 1);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	if (!atomic_load(&x->failed)) {
		qsort(x->batch, PCB_XLINE_BATCHES, sizeof(x->batch[0]), pcb_cmp_double);
		ticks = x->batch[PCB_XLINE_BATCHES / 2];
	}
	free(x);
	return ticks;
}
