// SPDX-License-Identifier: MIT
/*
 * A thread's perf events over its timed part (kmod.h), as the harness's
 * threads count theirs (measure/counters.c): the plan's events, resolved
 * by libpfm4 in userspace, each created with
 * perf_event_create_kernel_counter() for the calling kthread's task on
 * whatever CPU it runs (the thread's own events, as perf_event_open() of
 * pid 0 and cpu -1 counts a thread's), disabled until the run's START
 * phase, disabled again at its end and read with perf_event_read_value():
 * the count with its enabled and running times, which the harness scales
 * a multiplexed count by. A kernel counter has no group: each event is
 * scheduled on its own. One this kernel cannot count (no PMU: -ENOENT)
 * keeps its -errno as its status, and the run goes on.
 */
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "kmod.h"

static void attr_of(struct perf_event_attr *a, const struct pcb_plan_event *e)
{
	memset(a, 0, sizeof(*a));
	a->type = e->type;
	a->size = sizeof(*a);
	a->config = e->config;
	a->config1 = e->config1;
	a->config2 = e->config2;
	a->disabled = 1;
	a->exclude_user = !!(e->flags & PCB_PLAN_EV_EXCLUDE_USER);
	a->exclude_kernel = !!(e->flags & PCB_PLAN_EV_EXCLUDE_KERNEL);
	a->exclude_hv = !!(e->flags & PCB_PLAN_EV_EXCLUDE_HV);
	a->exclude_host = !!(e->flags & PCB_PLAN_EV_EXCLUDE_HOST);
	a->exclude_guest = !!(e->flags & PCB_PLAN_EV_EXCLUDE_GUEST);
	a->pinned = !!(e->flags & PCB_PLAN_EV_PINNED);
	a->exclusive = !!(e->flags & PCB_PLAN_EV_EXCLUSIVE);
	a->precise_ip = e->precise_ip;
}

void pcb_kctr_open(struct pcb_kctr *c, const struct pcb_plan *p)
{
	struct perf_event_attr attr;

	memset(c, 0, sizeof(*c));
	c->n = (int)p->nr_events;
	for (int i = 0; i < c->n; i++) {
		struct perf_event *ev;

		attr_of(&attr, &p->event[i]);
		ev = pcb_perf_counter(&attr, current);
		if (IS_ERR(ev))
			c->status[i] = (int)PTR_ERR(ev);
		else
			c->ev[i] = ev;
	}
}

void pcb_kctr_start(struct pcb_kctr *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->ev[i])
			perf_event_enable(c->ev[i]);
}

void pcb_kctr_stop(struct pcb_kctr *c, struct pcb_plan_counter *out)
{
	for (int i = 0; i < c->n; i++)
		if (c->ev[i])
			perf_event_disable(c->ev[i]);
	for (int i = 0; i < c->n; i++) {
		u64 enabled = 0, running = 0;

		memset(&out[i], 0, sizeof(out[i]));
		out[i].status = c->status[i];
		if (!c->ev[i])
			continue;
		out[i].value = perf_event_read_value(c->ev[i], &enabled, &running);
		out[i].enabled_ns = enabled;
		out[i].running_ns = running;
	}
}

void pcb_kctr_close(struct pcb_kctr *c)
{
	for (int i = 0; i < c->n; i++) {
		pcb_perf_release(c->ev[i]);
		c->ev[i] = NULL;
	}
}
