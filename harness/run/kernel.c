/* SPDX-License-Identifier: MIT */
/*
 * A run in the kernel backend (run.backend = kernel): the same run the
 * runner makes with threads (runner.c), as a plan (pcb/plan.h) the
 * module runs with the kernel's own primitives; its workers' and its
 * coordinator's figures come back raw and are collected by the same code
 * as the threads' (collect.c). The coordinator's CPU is picked as the
 * runner picks it; the idle CPUs a drain walks are this machine's, real
 * and idle, not virtual.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../machine/kmod.h"
#include "../measure/interrupts.h"
#include "kernel.h"
#include "pcb/plan.h"
#include "threads.h"

static struct pcb_kernel_facts facts;

void pcb_kernel_set_module(const char *path, const char *how, const char *build_id)
{
	snprintf(facts.module, sizeof(facts.module), "%s", path);
	snprintf(facts.module_how, sizeof(facts.module_how), "%s", how);
	snprintf(facts.build_id, sizeof(facts.build_id), "%s", build_id);
}

const struct pcb_kernel_facts *pcb_kernel_facts(void)
{
	return &facts;
}

static void note(struct pcb_design_result *res, const char *fmt, const char *a, long b, long c)
{
	size_t n = strlen(res->run_note);

	snprintf(res->run_note + n, sizeof(res->run_note) - n, "%s", n ? "; " : "");
	n = strlen(res->run_note);
	snprintf(res->run_note + n, sizeof(res->run_note) - n, fmt, a, b, c);
}

/* the idle CPUs a drain walks: this machine's, with no worker and not the coordinator */
static void plan_idle(struct pcb_plan *p, const struct pcb_topo *topo,
		      const struct pcb_scenario *sc, struct pcb_design_result *res)
{
	int nr = (int)p->nr_workers, charged;
	bool self_charged;
	int want = pcb_coord_idle(sc->drain_stocks, sc->drain_online, nr, &charged, &self_charged);
	unsigned int cpu;

	hwloc_bitmap_foreach_begin(cpu, topo->all) {
		if ((int)p->nr_idle < want && cpu < PCB_PLAN_MAX_CPUS && (int)cpu != p->coord_cpu &&
		    !hwloc_bitmap_isset(sc->workers, cpu))
			p->idle_cpu[p->nr_idle++] = cpu;
	} hwloc_bitmap_foreach_end();
	p->nr_charged = (uint32_t)(charged < (int)p->nr_idle ? charged : (int)p->nr_idle);
	p->coord_charged = self_charged;
	if ((int)p->nr_idle < want)
		note(res, "%s: the kernel backend walks this machine's online CPUs: %ld of the %ld "
		     "a drain walks (drain.online, drain.stocks) are here", res->label,
		     (long)(nr + 1 + (int)p->nr_idle), (long)(nr + 1 + want));
	res->drain.nr_virtual = (int)p->nr_idle;
}

/*
 * The scenario's perf events as libpfm4 resolved them (measure/counters.c),
 * for the module to create for each of its threads: the attr's fields a
 * plan carries, each checked against what it can carry; -1 with err
 */
static int plan_events(struct pcb_plan *p, const struct pcb_counters_cfg *cfg, char *err,
		       size_t errlen)
{
	if (cfg->n < 0 || cfg->n > PCB_PLAN_MAX_EVENTS) {
		snprintf(err, errlen, "%d perf events: the kernel backend counts at most %d",
			 cfg->n, PCB_PLAN_MAX_EVENTS);
		return -1;
	}
	for (int i = 0; i < cfg->n; i++) {
		const struct perf_event_attr *a = &cfg->ev[i].attr;
		struct pcb_plan_event *e = &p->event[i];

		if (a->sample_period || a->freq || a->type == PERF_TYPE_BREAKPOINT ||
		    a->type > INT32_MAX) {
			snprintf(err, errlen, "event '%s' (%s): not one the kernel backend can count",
				 cfg->ev[i].name, cfg->ev[i].fstr);
			return -1;
		}
		e->type = a->type;
		e->config = a->config;
		e->config1 = a->config1;
		e->config2 = a->config2;
		e->precise_ip = a->precise_ip;
		e->flags = (a->exclude_user ? PCB_PLAN_EV_EXCLUDE_USER : 0) |
			   (a->exclude_kernel ? PCB_PLAN_EV_EXCLUDE_KERNEL : 0) |
			   (a->exclude_hv ? PCB_PLAN_EV_EXCLUDE_HV : 0) |
			   (a->exclude_host ? PCB_PLAN_EV_EXCLUDE_HOST : 0) |
			   (a->exclude_guest ? PCB_PLAN_EV_EXCLUDE_GUEST : 0) |
			   (a->pinned ? PCB_PLAN_EV_PINNED : 0) |
			   (a->exclusive ? PCB_PLAN_EV_EXCLUSIVE : 0);
	}
	p->nr_events = (uint32_t)cfg->n;
	return 0;
}

/* res's design and configuration, run number run, as a plan; -1 with err */
static int plan_make(struct pcb_plan *p, const struct pcb_topo *topo,
		     struct pcb_design_result *res, int run, char *err, size_t errlen)
{
	const struct pcb_scenario *sc = res->sc;
	unsigned int cpu;

	memset(p, 0, sizeof(*p));
	p->version = PCB_PLAN_VERSION;
	p->size = sizeof(*p);
	snprintf(p->model, sizeof(p->model), "%s", sc->model->name);
	snprintf(p->design, sizeof(p->design), "%s", res->design->name);
	snprintf(p->variant, sizeof(p->variant), "%s", res->variant->name);
	while (p->variant_index < PCB_MAX_VARIANTS &&
	       res->design->variant[p->variant_index] != res->variant)
		p->variant_index++;
	if (sc->model->config.size > PCB_PLAN_CONFIG_MAX) {
		snprintf(err, errlen, "model %s's settings do not fit a plan", sc->model->name);
		return -1;
	}
	p->config_size = (uint32_t)sc->model->config.size;
	memcpy(p->config, sc->config, sc->model->config.size);
	p->timing = (uint32_t)sc->timing;
	p->run = (uint32_t)run;
	p->seed = (uint64_t)sc->seed;
	p->ops = (uint64_t)sc->ops;
	p->duration_ns = (uint64_t)sc->duration_ms * 1000000;
	p->warmup_ns = (uint64_t)sc->warmup_ms * 1000000;
	p->gap_threshold_ns = (uint64_t)sc->gap_threshold_ns;
	p->gap_floor_ns = PCB_GAP_FLOOR_NS;
	p->gap_periods = PCB_GAP_PERIODS;
	p->overhead_samples = PCB_OVERHEAD_SAMPLES;
	if (plan_events(p, &sc->counters, err, errlen) < 0)
		return -1;
	hwloc_bitmap_foreach_begin(cpu, sc->workers) {
		if (p->nr_workers == PCB_PLAN_MAX_WORKERS || cpu >= PCB_PLAN_MAX_CPUS) {
			snprintf(err, errlen, "the kernel backend runs at most %d workers, on CPUs "
				 "below %d", PCB_PLAN_MAX_WORKERS, PCB_PLAN_MAX_CPUS);
			return -1;
		}
		p->worker_cpu[p->nr_workers++] = cpu;
	} hwloc_bitmap_foreach_end();
	hwloc_bitmap_foreach_begin(cpu, sc->isolated) {
		if (cpu < PCB_PLAN_MAX_CPUS)
			p->isolated[cpu] = 1;
	} hwloc_bitmap_foreach_end();
	p->coord_cpu = -1;
	if (sc->drain_rate_hz <= 0 && sc->drain_count <= 0)
		return 0;
	p->coord_cpu = pcb_pick_coord_cpu(topo, sc, res);
	p->drain_count = sc->drain_count > 0 ? (uint64_t)sc->drain_count : 0;
	p->drain_period_ns = p->drain_count ? 0 : (uint64_t)(1e9 / sc->drain_rate_hz);
	p->drain_burst = (uint32_t)sc->drain_burst;
	p->drain_poisson = !p->drain_count && sc->drain_poisson;
	res->drain.active = 1;
	res->drain.cpu = p->coord_cpu;
	plan_idle(p, topo, sc, res);
	return 0;
}

/* a thread's counts of the plan's events, as pcb_counters_stop() leaves them */
static void counters_from(struct pcb_counter_value *v, const struct pcb_plan_counter *c)
{
	for (int e = 0; e < PCB_PLAN_MAX_EVENTS; e++) {
		v[e].status = c[e].status;
		v[e].value = c[e].value;
		v[e].enabled_ns = c[e].enabled_ns;
		v[e].running_ns = c[e].running_ns;
	}
}

/* one worker's figures as its thread would have left them */
static void worker_from(struct thread_ctx *t, struct pcb_worker *w, struct pcb_cpu *cpu,
			const struct pcb_plan_worker *o)
{
	memset(t, 0, sizeof(*t));
	t->cpu = o->cpu;
	t->node = o->node;
	t->w = w;
	w->cpu = cpu;
	w->ops = o->ops;
	w->failed = o->failed;
	w->misses = o->misses;
	w->tsc_start = o->tsc_start;
	w->tsc_end = o->tsc_end;
	w->gaps = o->gaps;
	w->dbg = o->dbg;
	w->dbg.pmc = NULL;
	counters_from(t->ctr, o->ctr);
	memcpy(cpu->ev, o->ev, sizeof(cpu->ev));
	cpu->h.remote_drains = o->remote_drains;
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++) {
		cpu->h.cc[i].fn = o->cc[i].fn[0] ? o->cc[i].fn : NULL;
		cpu->h.cc[i].wait = o->cc[i].wait;
		cpu->h.cc[i].held = o->cc[i].held;
	}
	pcb_overhead_from_counts(&t->ovh_start, o->ovh_start, PCB_PLAN_OVH_TICKS, o->ovh_samples,
				 o->ovh_start_over);
	pcb_overhead_from_counts(&t->ovh_end, o->ovh_end, PCB_PLAN_OVH_TICKS, o->ovh_samples,
				 o->ovh_end_over);
	t->overhead = t->ovh_start.trimmed;
}

/* the workers' figures through collect.c, as the runner collects its threads' */
static int collect_workers(struct pcb_design_result *res, const struct pcb_plan_result *r,
			   int run, const struct pcb_topo *topo, const struct pcb_clock *clk)
{
	const struct pcb_plan_worker *o = (const void *)(r + 1);
	int nr = (int)r->nr_workers;
	struct thread_ctx *t = calloc((size_t)nr, sizeof(*t));
	struct pcb_worker *w = calloc((size_t)nr, sizeof(*w));
	struct pcb_cpu *cpu = calloc((size_t)nr, sizeof(*cpu));

	if (!t || !w || !cpu) {
		free(t);
		free(w);
		free(cpu);
		return -1;
	}
	for (int i = 0; i < nr; i++) {
		const struct pcb_topo_cpu *tc = pcb_topo_cpu(topo, o[i].cpu);

		worker_from(&t[i], &w[i], &cpu[i], &o[i]);
		t[i].node = tc ? tc->node : -1;
		res->worker[i].cpu = (int)o[i].cpu;
		res->worker[i].node = tc ? tc->node : -1;
		res->worker[i].isolated = hwloc_bitmap_isset(res->sc->isolated, o[i].cpu);
		res->worker[i].cache_node = o[i].node;
		res->drain.work_queued += o[i].work_queued;
		res->drain.work_ran += o[i].work_ran_here + o[i].work_ran_elsewhere;
		res->drain.work_ran_here += o[i].work_ran_here;
		res->drain.work_ran_elsewhere += o[i].work_ran_elsewhere;
		if (o[i].work_ran_elsewhere)
			res->drain.work_elsewhere_cpu = o[i].work_elsewhere_cpu;
	}
	pcb_collect_run(res, t, nr, run, clk);
	free(t);
	free(w);
	free(cpu);
	return 0;
}

/* the coordinator's figures through collect.c */
static void collect_coord(struct pcb_design_result *res, const struct pcb_plan_result *r,
			  const struct pcb_plan *p, int run)
{
	const struct pcb_plan_coord *c = &r->coord;
	struct pcb_cpu self;
	struct run_shared s;

	memset(&s, 0, sizeof(s));
	memset(&self, 0, sizeof(self));
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++) {
		self.h.cc[i].fn = c->cc[i].fn[0] ? c->cc[i].fn : NULL;
		self.h.cc[i].wait = c->cc[i].wait;
		self.h.cc[i].held = c->cc[i].held;
	}
	self.h.remote_drains = c->remote_drains;
	s.coord.self = &self;
	s.coord.drain = c->drain;
	s.coord.overhead = (double)c->overhead;
	s.coord.wake_sum = c->wake_sum;
	s.coord.wake_n = c->wake_n;
	s.coord.walk_sum = c->walk_sum;
	s.coord.completion = c->completion;
	s.coord.completed = c->completed;
	s.coord.incomplete = c->incomplete;
	s.coord.waited_preempted = c->waited_preempted;
	s.coord.stranded_sum = c->stranded_sum;
	s.coord.stranded_max = c->stranded_max;
	s.coord.stranded_n = c->stranded_n;
	s.coord.nr_workers = (int)p->nr_workers;
	s.coord.nr_virtual = (int)p->nr_idle;
	s.coord.nr_charged = (int)p->nr_charged;
	s.coord.self_charged = p->coord_charged;
	s.coord.nr_cpus = (int)p->nr_workers + (int)p->nr_idle;
	s.coord.nr_online = (int)c->nr_cpus;
	s.fired = c->fired;
	counters_from(s.coord_ctr, c->ctr);
	pcb_collect_coord(res, &s, run);
	res->drain.work_queued += c->idle_work_queued;
	res->drain.work_ran += c->idle_work_ran_here + c->idle_work_ran_elsewhere;
	res->drain.work_ran_here += c->idle_work_ran_here;
	res->drain.work_ran_elsewhere += c->idle_work_ran_elsewhere;
}

/* the kernel the run ran in, for the result */
static void keep_facts(const struct pcb_plan_result *r)
{
	facts.ran = 1;
	facts.kconfig = r->kconfig;
	facts.tsc_khz = r->tsc_khz;
	snprintf(facts.release, sizeof(facts.release), "%.*s", (int)sizeof(r->release),
		 r->release);
	pcb_kmod_preemption(r->kconfig, facts.preemption, sizeof(facts.preemption));
	pcb_kmod_mitigations(r->kconfig, facts.mitigations, sizeof(facts.mitigations));
}

/* the plan to the module; its figures in *rp (the caller frees); 0, 1 stopped, or -1 with err */
static int module_run(const struct pcb_plan *p, struct pcb_plan_result **rp, char *err,
		      size_t errlen)
{
	uint64_t size = pcb_plan_result_size(p->nr_workers);
	struct pcb_plan_result *r = calloc(1, size);
	struct pcb_plan_run req = { (uintptr_t)p, (uintptr_t)r, size };
	int fd = open(PCB_PLAN_DEVICE, O_RDWR | O_CLOEXEC), rc = 0;

	*rp = r;
	if (!r || fd < 0) {
		snprintf(err, errlen, "%s: %s", PCB_PLAN_DEVICE, r ? strerror(errno) :
			 "out of memory");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ioctl(fd, PCB_PLAN_IOC_RUN, &req) < 0) {
		rc = errno == EINTR ? 1 : -1;
		if (rc < 0)
			snprintf(err, errlen, "%s: %s", PCB_PLAN_DEVICE, strerror(errno));
	} else if (r->status) {
		snprintf(err, errlen, "the module refused the plan: %.*s", (int)sizeof(r->msg),
			 r->msg);
		rc = -1;
	}
	close(fd);
	return rc;
}

int pcb_kernel_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
			  struct pcb_design_result *res, int run, char *err, size_t errlen)
{
	struct pcb_plan *p = calloc(1, sizeof(*p));
	struct pcb_plan_result *r = NULL;
	int rc = -1;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	res->delivery = res->design->drain.queues_work ? PCB_DELIVER_WORKQUEUE : -1;
	if (plan_make(p, topo, res, run, err, errlen) == 0)
		rc = module_run(p, &r, err, errlen);
	if (rc == 0) {
		keep_facts(r);
		if (r->note[0])
			snprintf(res->model_note, sizeof(res->model_note), "%.*s",
				 (int)sizeof(r->note), r->note);
		if (collect_workers(res, r, run, topo, clk) < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		} else {
			if (p->coord_cpu >= 0)
				collect_coord(res, r, p, run);
			res->runs_done++;
		}
	}
	/* a run a signal cut short is no run: its figures are dropped, as the runner's */
	if (rc == 1)
		rc = 0;
	if (r && r->check_failed && !res->check_failed) {
		res->check_failed = 1;
		snprintf(res->check, sizeof(res->check), "%.*s", (int)sizeof(r->check), r->check);
	}
	free(r);
	free(p);
	return rc;
}
