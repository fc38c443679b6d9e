/* SPDX-License-Identifier: MIT */
/*
 * What a drain flavour without RCU readers has: workers need no
 * registration, and nothing is reported around their loops.
 */
#ifndef PCB_DRAIN_UNREGISTERED_H
#define PCB_DRAIN_UNREGISTERED_H

static inline void pcb_drain_online(void) { }
static inline void pcb_drain_offline(void) { }
#define PCB_DRAIN_THREAD_START NULL
#define PCB_DRAIN_THREAD_STOP NULL

#endif
