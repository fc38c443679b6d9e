/* SPDX-License-Identifier: MIT */
/*
 * The idle CPUs a coordinator's drain walks beyond the workers', and the
 * helper threads that stand in for them (internal to run/: the
 * coordinator's, idle.c). Their shape is struct pcb_coord_shape's; their
 * state is in struct pcb_coord (coordinator.h).
 */
#ifndef PCB_RUN_IDLE_H
#define PCB_RUN_IDLE_H

#include "coordinator.h"

/* the helpers the shape asks for and where IPIs to their CPUs land, before any allocation */
void pcb_idle_plan(struct pcb_coord *c, const struct pcb_coord_args *a);
/* the virtual CPUs, each on its node, and the helpers started; 0 or -1 with err */
int pcb_idle_start(struct pcb_coord *c, const struct pcb_coord_args *a, char *err, size_t errlen);
/* the helpers stopped, the virtual CPUs drained by their owners' drain and freed */
void pcb_idle_stop(struct pcb_coord *c);
/* every idle CPU's cache refilled (or its lines rewritten) as its owner would leave it */
void pcb_idle_refill(struct pcb_coord *c);
/* from before a flushing drain to after it: the helpers run the work it queues */
void pcb_idle_serve(struct pcb_coord *c);
void pcb_idle_unserve(struct pcb_coord *c);
/* the work a drain queued to idle CPUs, run as their kworkers would, untimed */
void pcb_idle_run_woken(struct pcb_coord *c);

#endif
