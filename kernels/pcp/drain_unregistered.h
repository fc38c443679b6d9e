/* SPDX-License-Identifier: MIT */
/* a drain flavour without RCU readers: nothing to register (drain_work.h, drain_remote.h) */
#ifndef PCB_PCP_DRAIN_UNREGISTERED_H
#define PCB_PCP_DRAIN_UNREGISTERED_H

static inline void pcp_drain_online(void) { }
static inline void pcp_drain_offline(void) { }
#define PCP_DRAIN_THREAD_START NULL
#define PCP_DRAIN_THREAD_STOP NULL

#endif
