/* SPDX-License-Identifier: MIT */
/*
 * The glue of the rseq drain (locks/rseq.h): the drainer stops a cache and
 * fences its CPU (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ), one
 * IPI) and drains it from its own CPU, as a remote drain does; no work
 * item and nothing between two operations. Each worker's thread needs
 * glibc's rseq area and the process's registration for the fence. A
 * model's drain_rseq.h includes this and its remote drain.
 */
#ifndef PCB_DRAIN_RSEQ_H
#define PCB_DRAIN_RSEQ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../locks/rseq.h"

#define PCB_DRAIN_FLAVOUR { .name = "rseq_fence" }

static inline void pcb_drain_between_ops(struct pcb_cpu *this)
{
	(void)this;
}

static inline void pcb_drain_online(void) { }
static inline void pcb_drain_offline(void) { }

/* each worker: its rseq area is glibc's; the process registers for the fence */
static void pcb_rseq_thread_start(void)
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
#define PCB_DRAIN_THREAD_START pcb_rseq_thread_start
#define PCB_DRAIN_THREAD_STOP NULL

#endif
