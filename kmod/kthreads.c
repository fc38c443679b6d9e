// SPDX-License-Identifier: MIT
/*
 * The threads of a run (kmod.h): a worker bound to its CPU runs the
 * design's loop, warm-up first, between the run's phases; the
 * coordinator, bound to its own, calls the design's drain by plan and
 * times it, with its completion and what it stranded. What they run is
 * the sequence the program's threads run too (harness/seam/sequence.c);
 * what is the kernel's is here: kthreads, their phases, sleeping, the
 * empty region counted in a histogram, perf events over the timed part
 * (counters.c). Each waits for kthread_stop() at the end, then gives
 * back what it holds.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "kmod.h"

/* set once by a signal to the run's task: the run ends at its threads' next chunk */
atomic_int pcb_stop_now;

void pcb_kmod_stop_now(void)
{
	atomic_store(&pcb_stop_now, 1);
}

/*
 * The CPU's worker is an RCU reader between two of its operations
 * (kernels/drain/qsbr.h): its section ends before it yields and begins
 * again after, so that it never sleeps inside one
 */
static DEFINE_PER_CPU(bool, rcu_reader);

void pcb_rcu_reader_begin(void)
{
	rcu_read_lock();
	this_cpu_write(rcu_reader, true);
}

void pcb_rcu_reader_end(void)
{
	this_cpu_write(rcu_reader, false);
	rcu_read_unlock();
}

/*
 * Between two chunks of a worker's loop: a model's operation gives back
 * the interrupts and the preempt count it took before the next begins, so
 * that they are never off for longer than one timed batch; and the CPU
 * is yielded where another task is due (cond_resched(): on a kernel
 * without full preemption nothing else preempts a kthread, and the
 * soft-lockup detector would see it stuck)
 */
void pcb_cond_resched(void)
{
	bool reader = this_cpu_read(rcu_reader);

	if (reader)
		rcu_read_unlock();
	WARN_ONCE(irqs_disabled() || preempt_count(),
		  "pcpbench: interrupts off (%d) or a preempt count (%#x) between two chunks",
		  irqs_disabled(), preempt_count());
	cond_resched();
	if (reader)
		rcu_read_lock();
}

void pcb_kphase(struct pcb_krun *r, enum pcb_kphase ph)
{
	if (atomic_inc_return(&r->arrived[ph]) == r->parties) {
		WRITE_ONCE(r->phase_done[ph], 1);
		wake_up_all(&r->wq);
		return;
	}
	wait_event_idle(r->wq, READ_ONCE(r->phase_done[ph]));
}

/* until kthread_stop(), not counted as load or as a hung task */
static void wait_for_stop(void)
{
	for (;;) {
		set_current_state(TASK_IDLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static uint64_t ns_ticks(const struct pcb_krun *r, uint64_t ns)
{
	return ns * r->tsc_khz / 1000000;
}

/*
 * The empty region, n times, its lengths counted (as measure/tsc.c's
 * pcb_overhead_measure()); the mean of those no longer than twice the
 * median, rounded: what a per-call value has subtracted
 */
static uint64_t overhead_measure(uint32_t *counts, uint64_t n, uint64_t *over)
{
	uint64_t seen = 0, median = 0, sum = 0, k = 0;

	for (uint64_t i = 0; i < n / 10; i++)
		(void)(pcb_tsc_end() - pcb_tsc_start());
	*over = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t0 = pcb_tsc_start();
		uint64_t d = pcb_tsc_end() - t0;

		if (d < PCB_PLAN_OVH_TICKS)
			counts[d]++;
		else
			(*over)++;
		if (!(i & 4095))
			cond_resched();
	}
	for (median = 0; median < PCB_PLAN_OVH_TICKS; median++) {
		seen += counts[median];
		if (seen > (n - 1) / 2)
			break;
	}
	for (uint64_t v = 0; v <= 2 * median && v < PCB_PLAN_OVH_TICKS; v++) {
		sum += v * counts[v];
		k += counts[v];
	}
	return k ? (sum + k / 2) / k : median;
}

int pcb_kworker_fn(void *arg)
{
	struct pcb_kworker *k = arg;
	struct pcb_krun *r = k->r;
	struct pcb_worker *w = k->w;
	uint64_t n = r->plan->overhead_samples;

	pcb_seq_worker_setup(&r->seq, &r->ops, r->shared, w, k->area, k->cpu);
	pcb_kctr_open(&k->ctr, r->plan);
	pcb_kphase(r, PCB_KPHASE_SET_UP);
	/* warm-up: also measures an operation's span for the interruption threshold */
	pcb_seq_warm(&r->seq, r->v, w);
	pcb_seq_reset(&r->seq, w, k->area);
	/* the empty region, warm, just before the timed part */
	k->out->ovh_samples = n;
	w->dbg.overhead = overhead_measure(k->out->ovh_start, n, &k->out->ovh_start_over);

	pcb_kphase(r, PCB_KPHASE_START);
	pcb_kctr_start(&k->ctr);
	pcb_seq_timed(&r->seq, r->v, w);
	pcb_kctr_stop(&k->ctr, k->out->ctr);
	/* and again after it: a move says the machine changed under the run */
	(void)overhead_measure(k->out->ovh_end, n, &k->out->ovh_end_over);
	pcb_kphase(r, PCB_KPHASE_OVER);
	/* every thread woken runs to here, a stopped run's too: nothing of them is left */
	pcb_kctr_close(&k->ctr);

	wait_for_stop();
	/* give back what it holds, and empty its cache as its own drain would */
	r->v->release(w);
	r->v->drain_dead(k->area);
	return 0;
}

/* ---- the coordinator ---- */

static void wait_until(const struct pcb_krun *r, uint64_t when)
{
	for (;;) {
		uint64_t now = pcb_tsc_now(), left_us;

		if (now >= when || atomic_load(&pcb_stop_now))
			return;
		left_us = (when - now) * 1000 / r->tsc_khz;
		if (left_us > 200) {
			usleep_range(left_us - 100, left_us - 50);
		} else {
			/* closer than a sleep's slack: spun, yielding where a task is due */
			cpu_relax();
			cond_resched();
		}
	}
}

/* an idle CPU's cache filled as its owner would leave it: on that CPU */
struct prefill {
	const struct pcb_variant *v;
	struct pcb_cpu *cpu;
	void *shared;
};

static void prefill_on_cpu(void *arg)
{
	struct prefill *f = arg;

	f->v->prefill(f->cpu, f->shared);
}

static void coord_prepare(struct pcb_krun *r)
{
	const struct pcb_plan *p = r->plan;

	for (uint32_t i = 0; i < p->nr_charged; i++) {
		struct prefill f = { r->v, r->cpus[r->nr_workers + i], r->shared };

		smp_call_function_single((int)f.cpu->cpu, prefill_on_cpu, &f, 1);
	}
	/* the coordinator's own, charged: on its CPU, this one */
	if (p->coord_charged) {
		struct prefill f = { r->v, r->self, r->shared };

		smp_call_function_single((int)r->self->cpu, prefill_on_cpu, &f, 1);
	}
}

/* until the work queued to every worker ran: the drain's completion */
static void completion(struct pcb_krun *r, uint64_t t0)
{
	struct pcb_plan_coord *c = &r->res->coord;

	if (!r->d->drain.queues_work)
		return;
	pcb_flush_work(r->cpus, r->nr_workers);
	c->completion.count[pcb_hist_index(pcb_tsc_end() - t0)]++;
	c->completed++;
}

static void stranded(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;
	uint64_t left = 0;

	if (!r->d->skips_isolated)
		return;
	for (int i = 0; i < r->nr_cpus; i++)
		if (r->cpus[i]->isolated)
			left += r->ops.stranded(r->shared, r->v, r->target, r->cpus[i]);
	c->stranded_sum += left;
	c->stranded_n++;
	c->stranded_max = max(c->stranded_max, left);
}

/* the idle CPUs' work run, then the walk alone over their empty caches */
static void idle_walk(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;
	int nr_idle = r->nr_cpus - r->nr_workers;
	uint64_t t0, t1;

	if (!nr_idle)
		return;
	if (r->d->drain.queues_work)
		pcb_flush_work(r->cpus + r->nr_workers, nr_idle);
	t0 = pcb_tsc_start();
	r->v->drain_all(r->self, r->target, r->cpus + r->nr_workers, nr_idle);
	t1 = pcb_tsc_end();
	c->walk_sum += t1 - t0 > c->overhead ? t1 - t0 - c->overhead : 0;
	if (r->d->drain.queues_work)
		pcb_flush_work(r->cpus + r->nr_workers, nr_idle);
}

static void drain_once(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;
	uint64_t t0, t1, waited;

	pcb_seq_drain_windows(r->d, r->cpus, r->nr_workers, true);
	r->wake_ticks = 0;
	r->wake_timed = pcb_wake_sampled(r->d->drain.queues_work, ++r->nr_drains);
	waited = pcb_seq_lock_waited(r->self);
	t0 = pcb_tsc_start();
	r->v->drain_all(r->self, r->target, r->walk, r->nr_online);
	t1 = pcb_tsc_end();
	/* a lock's section is far shorter than an interruption: its holder was preempted */
	if (pcb_seq_lock_waited(r->self) - waited > ns_ticks(r, r->plan->gap_threshold_ns ?
							 r->plan->gap_threshold_ns :
							 r->plan->gap_floor_ns))
		c->waited_preempted++;
	/* a drain that timed its wakes is their figure, not the drain's */
	if (r->wake_timed) {
		c->wake_sum += r->wake_ticks;
		c->wake_n++;
	} else {
		pcb_stat_record(&c->drain, t1 - t0, c->overhead, 1, PCB_NO_LIMIT);
	}
	r->wake_timed = false;
	pcb_seq_drain_windows(r->d, r->cpus, r->nr_workers, false);
	completion(r, t0);
	stranded(r);
	idle_walk(r);
}

static void coord_reset(struct pcb_krun *r)
{
	struct pcb_plan_coord *c = &r->res->coord;
	uint64_t overhead = c->overhead;

	memset(c, 0, sizeof(*c));
	c->overhead = overhead;
	c->cpu = r->plan->coord_cpu;
	c->nr_cpus = (uint32_t)r->nr_online;
	r->nr_drains = 0;
	memset(r->self->h.cc, 0, sizeof(r->self->h.cc));
	memset(r->self->ev, 0, sizeof(r->self->ev));
	r->self->h.remote_drains = 0;
}

static void seq_prepare(void *r)
{
	coord_prepare(r);
}

static void seq_wait_until(void *r, uint64_t when)
{
	wait_until(r, when);
}

static void seq_drain(void *r)
{
	drain_once(r);
}

static const struct pcb_seq_coord_ops seq_ops = {
	.prepare = seq_prepare, .wait_until = seq_wait_until, .drain = seq_drain,
};

int pcb_kcoord_fn(void *arg)
{
	struct pcb_krun *r = arg;
	const struct pcb_plan *p = r->plan;
	uint32_t *counts = pcb_kvcalloc(PCB_PLAN_OVH_TICKS, sizeof(*counts));
	/* a period past the longest run fires none: its ticks, bounded, cannot wrap */
	struct pcb_seq_drains drains = {
		.period_ticks = p->drain_count ? 0 :
				ns_ticks(r, min_t(uint64_t, p->drain_period_ns, PCB_PLAN_MAX_NS)),
		.count = p->drain_count, .burst = p->drain_burst,
		.poisson = p->drain_poisson, .rng = pcb_seq_drain_rng(p->seed, p->run),
	};
	uint64_t over, start;

	if (counts)
		r->res->coord.overhead = overhead_measure(counts, r->plan->overhead_samples, &over);
	pcb_kvfree(counts);
	pcb_kctr_open(&r->coord_ctr, r->plan);
	pcb_kphase(r, PCB_KPHASE_SET_UP);
	/* one drain a quarter into the warm-up, untimed, in at least 2 ms of it */
	pcb_seq_coord_warm(&seq_ops, r, &drains, r->seq.warmup_ticks, ns_ticks(r, 2000000));
	coord_reset(r);
	pcb_kphase(r, PCB_KPHASE_START);
	pcb_kctr_start(&r->coord_ctr);
	start = pcb_tsc_now();
	r->res->coord.fired = pcb_seq_coord_run(&seq_ops, r, &drains, start,
						start + r->seq.duration_ticks);
	pcb_kctr_stop(&r->coord_ctr, r->res->coord.ctr);
	pcb_kphase(r, PCB_KPHASE_OVER);
	pcb_kctr_close(&r->coord_ctr);
	wait_for_stop();
	return 0;
}
