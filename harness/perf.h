/* SPDX-License-Identifier: MIT */
/* Whether perf events can be opened here (perf_event_open(2)). */
#ifndef PCB_PERF_H
#define PCB_PERF_H

#include <stdint.h>

/* 0 if an event of this type/config opens for the calling thread, else -errno */
int pcb_perf_probe(uint32_t type, uint64_t config);
/* /proc/sys/kernel/perf_event_paranoid, or -99 if unreadable */
int pcb_perf_paranoid(void);

#endif
