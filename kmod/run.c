// SPDX-License-Identifier: MIT
/*
 * One run (kmod.h), as the harness's runner makes one (run/runner.c):
 * the model's shared state, the CPUs' areas from alloc_percpu() (each
 * CPU's on its node), a worker kthread on each worker's CPU and the
 * coordinator on its own, the run's phases, the figures collected, the
 * model's invariant checked with every thread waiting, then each worker
 * gives back what it holds and drains its own cache, and the invariant
 * and every cache are checked once more.
 */
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/utsname.h>
#include <asm/tsc.h>

#include "kmod.h"
#include "pcb/area.h"

/* the node of the page under a CPU area's address (alloc_percpu(): linear or vmalloc) */
static int pcb_kmod_node_of(const void *p)
{
	return page_to_nid(is_vmalloc_addr(p) ? vmalloc_to_page(p) : virt_to_page(p));
}

/* an area laid out as the harness lays one out (pcb/area.h, run/cpu_area.c) */
static struct pcb_cpu *area_init(struct pcb_krun *r, void *area, unsigned int cpu)
{
	const struct pcb_area_layout l = pcb_area_layout(r->d, r->v, r->place);
	struct pcb_cpu *c = area;

	memset(area, 0, l.size);
	pcb_cpu_init(c);
	c->cpu = cpu;
	c->node = cpu_to_node((int)cpu);
	c->isolated = cpu < PCB_PLAN_MAX_CPUS && r->plan->isolated[cpu];
	c->stock = (char *)area + l.stock;
	c->stock_next = (char *)area + l.next;
	r->v->stock_init(c, c->stock);
	if (l.spare) {
		c->stock_spare = (char *)area + l.spare;
		r->v->stock_init(c, c->stock_spare);
	}
	r->ops.cpu_setup(r->shared, r->d, c);
	if (r->work_off == -2)	/* the first area: where its drain work is */
		r->work_off = r->d->drain.queues_work && r->v->work_data(c) ?
			      (char *)r->v->work_data(c) - (char *)c : -1;
	pcb_kwork_init(r, c);
	return c;
}

/*
 * the configuration of the kernel this module was built against (v6.9
 * renamed the speculation options CONFIG_MITIGATION_*)
 */
static uint32_t pcb_kmod_kconfig(void)
{
	return (IS_ENABLED(CONFIG_PREEMPT_DYNAMIC) ? PCB_KCONFIG_PREEMPT_DYNAMIC : 0) |
	       (IS_ENABLED(CONFIG_PREEMPT_NONE) ? PCB_KCONFIG_PREEMPT_NONE : 0) |
	       (IS_ENABLED(CONFIG_PREEMPT_VOLUNTARY) ? PCB_KCONFIG_PREEMPT_VOLUNTARY : 0) |
	       (IS_ENABLED(CONFIG_PREEMPT) ? PCB_KCONFIG_PREEMPT : 0) |
	       (IS_ENABLED(CONFIG_PARAVIRT_SPINLOCKS) ? PCB_KCONFIG_PARAVIRT_SPINLOCKS : 0) |
	       (IS_ENABLED(CONFIG_PARAVIRT_XXL) ? PCB_KCONFIG_PARAVIRT_XXL : 0) |
	       (IS_ENABLED(CONFIG_RETPOLINE) || IS_ENABLED(CONFIG_MITIGATION_RETPOLINE) ?
		PCB_KCONFIG_RETPOLINE : 0) |
	       (IS_ENABLED(CONFIG_RETHUNK) || IS_ENABLED(CONFIG_MITIGATION_RETHUNK) ?
		PCB_KCONFIG_RETHUNK : 0) |
	       (IS_ENABLED(CONFIG_SLS) || IS_ENABLED(CONFIG_MITIGATION_SLS) ? PCB_KCONFIG_SLS : 0) |
	       (IS_ENABLED(CONFIG_JUMP_LABEL) ? PCB_KCONFIG_JUMP_LABEL : 0);
}

static int fail(struct pcb_krun *r, int err, const char *what)
{
	r->res->status = err;
	snprintf(r->res->msg, sizeof(r->res->msg), "%s", what);
	return err;
}

/* the shared state, the areas, the workers' structs; 0 or -errno */
static int run_setup(struct pcb_krun *r)
{
	const struct pcb_plan *p = r->plan;
	struct pcb_model_setup ms = {
		.config = p->config, .d = r->d, .v = r->v, .nr_cpus = (int)p->nr_workers,
		.note = r->res->note, .notelen = sizeof(r->res->note),
	};
	char err[256] = "";

	r->shared = r->ops.setup(&ms, err, sizeof(err));
	if (!r->shared)
		return fail(r, -EINVAL, err);
	r->target = r->ops.drain_target(r->shared);
	r->place = r->ops.stock_place(r->shared, r->d);
	r->area_size = pcb_area_layout(r->d, r->v, r->place).size;
	if (r->fault != PCB_KFAULT_AREAS)
		r->areas = pcb_alloc_percpu(r->area_size, PCB_CACHE_LINE);
	if (p->coord_cpu >= 0)
		r->coord_area = pcb_alloc_percpu(r->area_size, PCB_CACHE_LINE);
	r->cpus = pcb_kvcalloc(r->nr_cpus, sizeof(*r->cpus));
	r->walk = pcb_kvcalloc(r->nr_cpus + 1, sizeof(*r->walk));
	r->kw = pcb_kvcalloc(r->nr_workers, sizeof(*r->kw));
	r->work_ran = pcb_alloc_percpu(sizeof(*r->work_ran), __alignof__(*r->work_ran));
	if (!r->areas || (p->coord_cpu >= 0 && !r->coord_area) || !r->cpus || !r->walk ||
	    !r->kw || !r->work_ran)
		return fail(r, -ENOMEM, "out of memory for the CPUs' areas");
	return 0;
}

/* every CPU's area, and each worker's struct on its node */
static int areas_setup(struct pcb_krun *r)
{
	const struct pcb_plan *p = r->plan;

	r->work_off = -2;
	pcb_kwork_begin(r);
	for (int i = 0; i < r->nr_workers; i++) {
		struct pcb_kworker *k = &r->kw[i];

		k->r = r;
		k->cpu = p->worker_cpu[i];
		k->out = &r->wres[i];
		k->area = area_init(r, per_cpu_ptr(r->areas, k->cpu), k->cpu);
		r->cpus[i] = k->area;
		k->w_size = r->ops.worker_size;
		k->w = pcb_kvzalloc(k->w_size, cpu_to_node((int)k->cpu));
		if (!k->w)
			return fail(r, -ENOMEM, "out of memory for a worker");
	}
	for (uint32_t i = 0; i < p->nr_idle; i++)
		r->cpus[r->nr_workers + i] = area_init(r, per_cpu_ptr(r->areas, p->idle_cpu[i]),
						       p->idle_cpu[i]);
	if (p->coord_cpu >= 0) {
		r->self = area_init(r, per_cpu_ptr(r->coord_area, (unsigned int)p->coord_cpu),
				    (unsigned int)p->coord_cpu);
		r->nr_online = pcb_drain_walk(r->walk, r->self, r->cpus, r->nr_workers,
					      r->nr_cpus);
	}
	return 0;
}

/* the threads, bound and started; 0 or -errno (none started then) */
static int threads_start(struct pcb_krun *r)
{
	int i;

	for (i = 0; i < r->nr_workers; i++) {
		struct pcb_kworker *k = &r->kw[i];

		k->task = r->fault == PCB_KFAULT_THREADS && i == r->nr_workers - 1 ? ERR_PTR(-EAGAIN) :
			  kthread_create_on_cpu(pcb_kworker_fn, k, k->cpu, "pcpbench/%u");
		if (IS_ERR(k->task))
			break;
	}
	if (i == r->nr_workers && r->plan->coord_cpu >= 0) {
		r->coord = kthread_create_on_cpu(pcb_kcoord_fn, r, (unsigned int)r->plan->coord_cpu,
						 "pcpbench-drain/%u");
		if (IS_ERR(r->coord))
			r->coord = NULL;
		else
			i++;
	}
	if (i < r->nr_workers + (r->plan->coord_cpu >= 0)) {
		while (i-- > 0 && i < r->nr_workers)
			kthread_stop(r->kw[i].task);	/* never woken: it does not run */
		for (int j = 0; j < r->nr_workers; j++)
			r->kw[j].task = NULL;
		return fail(r, -ENOMEM, "cannot create the run's kthreads");
	}
	r->parties = r->nr_workers + 1 + (r->coord != NULL);
	for (i = 0; i < r->nr_workers; i++)
		wake_up_process(r->kw[i].task);
	if (r->coord)
		wake_up_process(r->coord);
	return 0;
}

/* the ioctl's task at a phase: a signal ends the run at its threads' next chunk */
static void main_phase(struct pcb_krun *r, enum pcb_kphase ph)
{
	if (atomic_inc_return(&r->arrived[ph]) == r->parties) {
		WRITE_ONCE(r->phase_done[ph], 1);
		wake_up_all(&r->wq);
		return;
	}
	if (wait_event_interruptible(r->wq, READ_ONCE(r->phase_done[ph]))) {
		pcb_kmod_stop_now();
		r->res->stopped = 1;
		wait_event_idle(r->wq, READ_ONCE(r->phase_done[ph]));
	}
}

static void copy_cc(struct pcb_plan_cc *out, const struct pcb_contention *cc)
{
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++) {
		out[i].fn[0] = 0;
		if (cc[i].fn)
			strscpy(out[i].fn, cc[i].fn, sizeof(out[i].fn));
		out[i].wait = cc[i].wait;
		out[i].held = cc[i].held;
	}
}

/* the workers' and the coordinator's figures of the run */
static void collect(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;

	for (int i = 0; i < r->nr_workers; i++) {
		struct pcb_kworker *k = &r->kw[i];
		struct pcb_plan_worker *o = k->out;
		struct pcb_worker *w = k->w;

		o->cpu = k->cpu;
		o->node = pcb_kmod_node_of(k->area->stock);
		o->ops = w->ops;
		o->failed = w->failed;
		o->misses = w->misses;
		o->tsc_start = w->tsc_start;
		o->tsc_end = w->tsc_end;
		memcpy(o->ev, k->area->ev, sizeof(o->ev));
		o->remote_drains = k->area->h.remote_drains;
		copy_cc(o->cc, k->area->h.cc);
		o->gaps = w->gaps;
		o->dbg = w->dbg;
		o->dbg.pmc = NULL;
	}
	if (!r->self)
		return;
	c->remote_drains = r->self->h.remote_drains;
	copy_cc(c->cc, r->self->h.cc);
}

/* where each stock's drain work ran, after every thread stopped */
static void collect_work(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;

	for (int i = 0; i < r->nr_cpus; i++) {
		const struct pcb_kwork_ran *ran = per_cpu_ptr(r->work_ran, r->cpus[i]->cpu);
		uint64_t here = ran->here;
		uint64_t there = ran->elsewhere;
		uint64_t q = here + there;

		if (i < r->nr_workers) {
			struct pcb_plan_worker *o = r->kw[i].out;

			o->work_queued = q;
			o->work_ran_here = here;
			o->work_ran_elsewhere = there;
			o->work_elsewhere_cpu = there ? ran->elsewhere_cpu : -1;
		} else {
			c->idle_work_queued += q;
			c->idle_work_ran_here += here;
			c->idle_work_ran_elsewhere += there;
		}
	}
}

/* the model's invariant over the workers, the coordinator and the idle CPUs */
static int check_all(struct pcb_krun *r, char *msg, size_t len)
{
	struct pcb_cpu **all = pcb_kvcalloc(r->nr_cpus + 1, sizeof(*all));
	struct pcb_worker **ws = pcb_kvcalloc(r->nr_workers, sizeof(*ws));
	struct pcb_quiescent q = {
		.shared = r->shared, .v = r->v, .w = ws, .nr_workers = r->nr_workers, .cpus = all,
	};
	int k = 0, rc = -1;

	if (!all || !ws) {
		snprintf(msg, len, "out of memory");
		goto out;
	}
	for (int i = 0; i < r->nr_workers; i++) {
		ws[i] = r->kw[i].w;
		all[k++] = r->cpus[i];
	}
	if (r->self)
		all[k++] = r->self;
	for (int i = r->nr_workers; i < r->nr_cpus; i++)
		all[k++] = r->cpus[i];
	q.nr_cpus = k;
	rc = r->ops.check(&q, msg, len);
	if (!rc && r->fault == PCB_KFAULT_CHECK) {
		snprintf(msg, len, "broken, as the parameter fail asked");
		rc = -1;
	}
out:
	pcb_kvfree(all);
	pcb_kvfree(ws);
	return rc;
}

static void check(struct pcb_krun *r, const char *when)
{
	char msg[256];

	if (r->res->check_failed || check_all(r, msg, sizeof(msg)) == 0)
		return;
	r->res->check_failed = 1;
	snprintf(r->res->check, sizeof(r->res->check), "%s: %s", when, msg);
}

/* the threads stopped: each worker gives back what it holds, then the final checks */
static void threads_stop(struct pcb_krun *r)
{
	for (int i = 0; i < r->nr_workers; i++)
		if (r->kw[i].task)
			kthread_stop(r->kw[i].task);
	if (r->coord)
		kthread_stop(r->coord);
	pcb_kwork_flush_all(r);
	check(r, "after the final drain");
	for (int i = 0; i < r->nr_workers && !r->res->check_failed; i++)
		if (!r->ops.cache_empty(r->shared, r->v, r->cpus[i])) {
			r->res->check_failed = 1;
			snprintf(r->res->check, sizeof(r->res->check), "after the final drain: "
				 "the stock of CPU %u is not empty", r->cpus[i]->cpu);
		}
}

static void run_teardown(struct pcb_krun *r)
{
	if (r->cpus)
		pcb_kwork_end(r);
	if (r->shared)
		r->ops.teardown(r->shared);
	for (int i = 0; r->kw && i < r->nr_workers; i++)
		pcb_kvfree(r->kw[i].w);
	pcb_free_percpu(r->areas);
	pcb_free_percpu(r->coord_area);
	pcb_kvfree(r->cpus);
	pcb_kvfree(r->walk);
	pcb_kvfree(r->kw);
	pcb_free_percpu(r->work_ran);
}

int pcb_kmod_run(const struct pcb_plan *p, struct pcb_plan_result *res)
{
	struct pcb_krun *r = pcb_kvcalloc(1, sizeof(*r));
	char when[32];
	int rc;

	if (!r)
		return -ENOMEM;
	r->plan = p;
	r->res = res;
	r->wres = (struct pcb_plan_worker *)(res + 1);
	r->m = pcb_kmod_model(p->model);
	r->d = pcb_kmod_design(p->model, p->design);
	r->v = r->d->variant[p->variant_index];
	r->ops = pcb_model_ops_defaults(r->m->ops);
	r->nr_workers = (int)p->nr_workers;
	r->nr_cpus = r->nr_workers + (int)p->nr_idle;
	r->tsc_khz = tsc_khz;
	r->seq = (struct pcb_seq){
		.seed = p->seed, .run = p->run, .timing = (enum pcb_timing)p->timing,
		.tsc_khz = tsc_khz,
		.warmup_ticks = p->warmup_ns * tsc_khz / 1000000,
		.duration_ticks = p->duration_ns * tsc_khz / 1000000,
		.gap_threshold_ticks = p->gap_threshold_ns * tsc_khz / 1000000,
		.gap_floor_ticks = p->gap_floor_ns * tsc_khz / 1000000,
		.gap_periods = p->gap_periods,
		.ops = p->ops,
	};
	init_waitqueue_head(&r->wq);
	res->tsc_khz = r->tsc_khz;
	res->nr_workers = p->nr_workers;
	res->kconfig = pcb_kmod_kconfig();
	strscpy(res->release, utsname()->release, sizeof(res->release));
	snprintf(res->check, sizeof(res->check), "ok");
	atomic_store(&pcb_stop_now, 0);
	r->fault = pcb_kfault_take();

	rc = run_setup(r);
	if (!rc)
		rc = areas_setup(r);
	if (!rc)
		rc = threads_start(r);
	if (!rc) {
		main_phase(r, PCB_KPHASE_SET_UP);
		main_phase(r, PCB_KPHASE_START);
		main_phase(r, PCB_KPHASE_OVER);
		collect(r);
		/* nothing runs on any CPU before the check reads it */
		pcb_kwork_flush_all(r);
		snprintf(when, sizeof(when), "after run %u", p->run + 1);
		check(r, when);
		threads_stop(r);
		collect_work(r);
	}
	run_teardown(r);
	pcb_kvfree(r);
	return rc;
}
