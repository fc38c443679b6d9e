/* SPDX-License-Identifier: MIT */
/*
 * What a drain flavour without RCU readers has: workers need no
 * registration and no quiescent states (drain_work.h, drain_remote.h).
 */
#ifndef PCB_MEMCG_DRAIN_UNREGISTERED_H
#define PCB_MEMCG_DRAIN_UNREGISTERED_H

static inline void memcg_drain_online(void) { }
static inline void memcg_drain_offline(void) { }
#define MEMCG_DRAIN_THREAD_START NULL
#define MEMCG_DRAIN_THREAD_STOP NULL

#endif
