/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "stats.h"
#include "tsc.h"
#include "xline.h"

/* the whole probe's limit: a thread off its CPU for that long is not coming back soon */
#define XLINE_GIVE_UP_S 0.5
/* spins between two looks at the clock: a look costs more than the line's move */
#define XLINE_SPINS 256

struct xline {
	_Alignas(64) atomic_ulong v;		/* the line passed back and forth */
	_Alignas(64) atomic_int ready;		/* both threads pinned */
	atomic_int failed;
	const struct pcb_topo *topo;
	unsigned int cpu[2];
	uint64_t deadline;			/* TSC: the probe gives up */
	double batch[PCB_XLINE_BATCHES];
};

/*
 * Wait for the line to read want, a bare load loop, as fast as the line
 * comes (a pause would add its own latency to every move); false once the
 * other side has gone or the probe's time is up
 */
static bool xline_wait(struct xline *x, unsigned long want)
{
	for (unsigned int spins = 0;
	     atomic_load_explicit(&x->v, memory_order_acquire) != want; spins++) {
		if (spins % XLINE_SPINS == XLINE_SPINS - 1 &&
		    (atomic_load_explicit(&x->failed, memory_order_relaxed) ||
		     pcb_tsc_now() > x->deadline)) {
			atomic_store(&x->failed, 1);
			return false;
		}
	}
	return true;
}

/* both sides: pinned, then every odd value is the prober's and every even one the partner's */
static void *xline_side(void *arg, int side)
{
	struct xline *x = arg;
	unsigned long n = 0;

	if (pcb_topo_pin(x->topo, x->cpu[side]) < 0)
		atomic_store(&x->failed, 1);
	atomic_fetch_add(&x->ready, 1);
	while (atomic_load(&x->ready) < 2 && !atomic_load(&x->failed)) {
		if (pcb_tsc_now() > x->deadline)
			atomic_store(&x->failed, 1);
		__builtin_ia32_pause();
	}
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
	x->deadline = pcb_tsc_now() + (uint64_t)(tsc_hz * XLINE_GIVE_UP_S);
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
