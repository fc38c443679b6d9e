/* SPDX-License-Identifier: MIT */
/*
 * Perf counters: event names resolved by libpfm4, opened with
 * perf_event_open() for each measuring thread, one group per thread where the
 * PMU allows it, read at the start and end of every measured run. Whether an
 * event exists is only what perf_event_open() says, never libpfm4's success.
 *
 * Per-call reads (counters.per_call) use rdpmc when the event's mmap page
 * says cap_user_rdpmc and gives an index, with the seqlock, offset and width
 * pattern of include/uapi/linux/perf_event.h; otherwise read().
 */
#ifndef PCB_COUNTERS_H
#define PCB_COUNTERS_H

/* libpfm4's copy of the perf ABI; it cannot be mixed with <linux/perf_event.h> */
#include <perfmon/pfmlib_perf_event.h>
#include <stddef.h>
#include <stdint.h>

/* PCB_MAX_EVENTS, and pcb_counters_snap(), which a timed call reads with */
#include "pcb/timed.h"

struct pcb_event_spec {
	char name[64];			/* as the user wrote it */
	char fstr[256];			/* libpfm4's full name */
	struct perf_event_attr attr;
};

struct pcb_counters_cfg {
	int n;
	struct pcb_event_spec ev[PCB_MAX_EVENTS];
	int kernel;			/* count kernel mode too */
	int per_call;			/* call timing: read around every timed call */
};

/* one event's figure over some span */
struct pcb_counter_value {
	int status;			/* 0 counted, else -errno of perf_event_open() */
	uint64_t value;			/* raw count */
	uint64_t enabled_ns, running_ns;
};

struct pcb_counters {
	int n;
	int fd[PCB_MAX_EVENTS];
	int status[PCB_MAX_EVENTS];	/* 0 or -errno */
	int member[PCB_MAX_EVENTS];	/* a non-leader member of the thread's group */
	int kernel_dropped;		/* kernel mode asked for, not permitted */
	struct perf_event_mmap_page *mm[PCB_MAX_EVENTS];
	int rdpmc;			/* every open event can be read with rdpmc */
	struct pcb_counter_value start[PCB_MAX_EVENTS];
};

/*
 * Parse "cycles, instructions, task-clock" into cfg. -1 with the offending
 * name and libpfm4's reason in err.
 */
int pcb_counters_parse(const char *list, int kernel, struct pcb_counters_cfg *cfg,
		       char *err, size_t errlen);
/* open cfg's events for the calling thread; never fails as a whole */
void pcb_counters_open(struct pcb_counters *c, const struct pcb_counters_cfg *cfg);
void pcb_counters_close(struct pcb_counters *c);
/* reset and enable / disable and read: out[i] is the span's figure */
void pcb_counters_start(struct pcb_counters *c);
void pcb_counters_stop(struct pcb_counters *c, struct pcb_counter_value *out);

/* add one span's figure to a sum; the first failure sticks */
static inline void pcb_counter_add(struct pcb_counter_value *sum, const struct pcb_counter_value *v)
{
	if (!sum->status)
		sum->status = v->status;
	sum->value += v->value;
	sum->enabled_ns += v->enabled_ns;
	sum->running_ns += v->running_ns;
}

/* "<not supported>" and friends for a status; NULL when counted */
const char *pcb_counter_status_text(const struct pcb_counter_value *v);
/* does the named event open here? 0 or -errno (-ENOENT if libpfm4 does not know it) */
int pcb_counters_probe(const char *name);
/* /proc/sys/kernel/perf_event_paranoid, or -99 if unreadable */
int pcb_perf_paranoid(void);

#endif
