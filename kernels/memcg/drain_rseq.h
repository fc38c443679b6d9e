/* SPDX-License-Identifier: MIT */
/*
 * The drain of the rseq design (designs/rseq.h): drain_all_stock() drains
 * every stock that needs it from the calling CPU, as the remote drain of
 * seed 000's series does, but taking a stock means stopping it and fencing
 * its CPU (kernels/locks/rseq.h): one membarrier IPI per stock drained, no
 * work item. A drain flavour: included at the end of memcg_stock.h.
 */
#ifndef PCB_MEMCG_DRAIN_RSEQ_H
#define PCB_MEMCG_DRAIN_RSEQ_H

#define MEMCG_DRAIN_FLAVOUR { .name = "rseq_fence" }

static inline void memcg_drain_online(void) { }
static inline void memcg_drain_offline(void) { }

/* each worker: its rseq area is glibc's; the process registers for the fence */
static void memcg_rseq_thread_start(void)
{
	const char *why = pcb_rseq_unavailable();
	int rc;

	if (why) {
		fprintf(stderr, "pcpbench: rseq: %s\n", why);
		abort();
	}
	rc = pcb_rseq_register_fence();
	if (rc) {
		fprintf(stderr, "pcpbench: membarrier(REGISTER_PRIVATE_EXPEDITED_RSEQ): %s\n",
			strerror(-rc));
		abort();
	}
}
#define MEMCG_DRAIN_THREAD_START memcg_rseq_thread_start
#define MEMCG_DRAIN_THREAD_STOP NULL

/* drain_all_stock() of seed 000's patch 4; memcg_stock_lock() stops and fences */
#include "drain_remote.h"

#endif
