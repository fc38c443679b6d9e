/* SPDX-License-Identifier: MIT */
/*
 * What one cache line costs to move between two CPUs on this machine: the
 * quantity a remote drain pays for every stock another CPU has written
 * (seed 000, 1.1: "the next local cpu read will require a fetch from
 * memory"). Two threads pinned to the CPUs pass a counter on one line back
 * and forth, each waiting for the other's value before it writes the next,
 * so a round trip is two transfers of a Modified line. The figure is the
 * median, over PCB_XLINE_BATCHES batches, of a batch's ticks per transfer:
 * a batch a preemption stretches moves one batch, not the figure.
 */
#ifndef PCB_XLINE_H
#define PCB_XLINE_H

#include "../machine/topo.h"

#define PCB_XLINE_BATCHES	31
#define PCB_XLINE_ROUNDS	256

/*
 * ticks per transfer between CPUs a and b; -1 if a thread could not run on
 * one, or the probe could not finish in its limit (xline.c)
 */
double pcb_xline_ticks(const struct pcb_topo *topo, unsigned int a, unsigned int b,
		       double tsc_hz);

#endif
