/* SPDX-License-Identifier: MIT */
/*
 * The glue of a drain that takes each CPU's lock from the calling CPU and
 * drains it there, with no work and no flags (seed 000's series, seed
 * 004's): nothing between two operations. A model's drain_remote.h
 * includes this and defines its drain.
 */
#ifndef PCB_DRAIN_REMOTE_H
#define PCB_DRAIN_REMOTE_H

#include "../percpu.h"
#include "unregistered.h"

#define PCB_DRAIN_FLAVOUR { .name = "remote" }

static inline void pcb_drain_between_ops(struct pcb_cpu *this)
{
	(void)this;
}

#endif
