/* SPDX-License-Identifier: MIT */
/*
 * The coordinator and what it measures: gap detection and attribution on a
 * scripted timeline; contention counted exactly (another thread holds a
 * stock's lock for a known number of acquisitions); a fixed number of drains
 * fired, after which every stock the design promises to drain is empty, and
 * isolated_skip's isolated stocks still hold their pages; the drain schedule
 * both backends run (pcb/sequence.h), its arrivals and its exponential.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"
#include "../../harness/measure/interrupts.h"
#include "../../harness/measure/tsc.h"
#include "../../harness/run/coordinator.h"
#include "pcb/plan.h"
#include "../../harness/run/cpu_area.h"
#include "../../kernels/memcg/memcg_model.h"
#include "../../kernels/pcp/pcp_model.h"
#include "../../kernels/sheaves/sheaves_model.h"
#include "pcb/registry.h"
#include "pcb/sequence.h"

/* the virtual CPUs fixed_count() asks for */
#define PCB_COORD_TEST_CPUS 16

static void scripted_gaps(void)
{
	struct pcb_gaps g;
	struct pcb_drain_window win;

	memset(&g, 0, sizeof(g));
	memset(&win, 0, sizeof(win));
	g.threshold = 100;
	g.period = 10;
	/* steady operations every 10 ticks: nothing */
	for (uint64_t t = 1000; t <= 1100; t += 10)
		pcb_gap_watch(&g, &win, t);
	CHECK(g.count == 0 && g.checks == 11, "steady: %lu gaps", (unsigned long)g.count);
	/* a 480-tick gap with no drain: the machine's own */
	pcb_gap_watch(&g, &win, 1580);
	CHECK(g.count == 1 && g.attributed == 0, "noise");
	/* a drain window opens and closes inside the next gap */
	atomic_store(&win.open, 1600);
	atomic_store(&win.close, 1700);
	pcb_gap_watch(&g, &win, 1880);
	CHECK(g.count == 2 && g.attributed == 1, "drain inside the gap");
	/* a drain still open when the gap ends */
	atomic_store(&win.open, 1885);
	pcb_gap_watch(&g, &win, 1890);		/* 10 ticks: not a gap */
	pcb_gap_watch(&g, &win, 2890);
	CHECK(g.count == 3 && g.attributed == 2, "drain open at the end");
	/* a gap just at the threshold is not one */
	pcb_gap_watch(&g, &win, 2990);
	CHECK(g.count == 3, "threshold is exclusive");
	/* a window that closed before the gap began is not this gap's */
	atomic_store(&win.close, 2900);
	pcb_gap_watch(&g, &win, 3200);
	CHECK(g.count == 4 && g.attributed == 2, "an earlier drain");
	CHECK(g.max == 1000, "max %lu", (unsigned long)g.max);
	CHECK(g.stolen == (480 - 10) + (300 - 10) + (1000 - 10) + (210 - 10), "stolen %lu",
	      (unsigned long)g.stolen);
	CHECK(pcb_hist_quantile(&g.hist, 1.0) == pcb_hist_lower(pcb_hist_index(1000)), "histogram");
	/* the overlap rule at its edges: a window opening after the gap, one ending at its start */
	CHECK(!pcb_gap_drained(500, 400, 100, 450), "opened after the gap");
	CHECK(!pcb_gap_drained(50, 100, 100, 450), "closed as the gap began");
	CHECK(pcb_gap_drained(50, 101, 100, 450), "closed inside the gap");
	CHECK(pcb_gap_drained(50, 40, 100, 450), "open across the gap");
}

struct hold {
	const struct pcb_variant *v;
	struct pcb_cpu *holder, *owner;
	atomic_int attempting;
	atomic_int locked;
	atomic_int done;
	int rounds;
};

static void *holder_thread(void *arg)
{
	struct hold *h = arg;

	for (int r = 0; r < h->rounds; r++) {
		unsigned long flags;

		while (atomic_load(&h->done) != r)	/* the owner's last round is over */
			usleep(100);
		flags = memcg_ops(h->v)->lock_stock(h->holder, h->owner);

		atomic_store(&h->locked, r + 1);
		while (atomic_load(&h->attempting) != r + 1)
			;
		usleep(50000);	/* the owner is spinning on the lock by now */
		memcg_ops(h->v)->unlock_stock(h->holder, h->owner, flags);
	}
	return NULL;
}

static unsigned long contended(const struct pcb_cpu *cpu, const char *fn)
{
	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++)
		if (cpu->h.cc[i].fn && !strcmp(cpu->h.cc[i].fn, fn))
			return cpu->h.cc[i].wait.n;
	return 0;
}

static struct pcb_cpu *new_cpu(const struct pcb_design *d, const struct pcb_variant *v, int id)
{
	const struct pcb_stock_place place = { .packed = false };
	void *area = aligned_alloc(4096, (pcb_cpu_area_size(d, v, place) + 4095) & ~(size_t)4095);
	struct pcb_cpu *cpu = pcb_cpu_area_init(area, d, v, place, (unsigned int)id, 0, false);

	return cpu;
}

static void exact_contention(void)
{
	const struct pcb_design *d = pcb_design_find(&memcg_model, "spinlock");
	const struct pcb_variant *v = d->variant[0];
	struct memcg_tree tree;
	struct hold h = { .v = v, .rounds = 4 };
	pthread_t t;
	int hits = 0;

	memcg_tree_create(&tree, 2, 1);
	h.owner = new_cpu(d, v, 0);
	h.holder = new_cpu(d, v, 1);
	/* uncontended acquisitions count nothing */
	for (int i = 0; i < 1000; i++)
		memcg_ops(v)->consume(h.owner, tree.leaf[0], 1);
	CHECK(contended(h.owner, "consume_stock") == 0, "uncontended");

	pthread_create(&t, NULL, holder_thread, &h);
	for (int r = 0; r < h.rounds; r++) {
		/* wait for the holder to have the lock, then collide with it */
		while (atomic_load(&h.locked) != r + 1)
			usleep(100);
		atomic_store(&h.attempting, r + 1);
		hits += memcg_ops(v)->consume(h.owner, tree.leaf[0], 1);
		atomic_store(&h.done, r + 1);
	}
	pthread_join(t, NULL);
	CHECK(contended(h.owner, "consume_stock") == (unsigned long)h.rounds,
	      "contended %lu, expected %d", contended(h.owner, "consume_stock"), h.rounds);
	CHECK(h.owner->h.cc[0].wait.sum > 0 && h.owner->h.cc[0].wait.max > 0, "waits measured");
	CHECK(hits == 0, "an empty stock serves nothing");
	free(h.owner);
	free(h.holder);
	memcg_tree_destroy(&tree);

	/* a local lock cannot be contended: nothing is ever counted */
	d = pcb_design_find(&memcg_model, "local_lock");
	v = d->variant[0];
	{
		struct pcb_cpu *c = new_cpu(d, v, 0);

		memcg_tree_create(&tree, 2, 1);
		for (int i = 0; i < 1000; i++)
			memcg_ops(v)->consume(c, tree.leaf[0], 1);
		CHECK(c->h.cc[0].fn == NULL, "local_lock counts no contention");
		free(c);
		memcg_tree_destroy(&tree);
	}
}

/*
 * The walk as for_each_online_cpu() meets the drainer: workers on CPUs 1,
 * 3 and 6, the drainer on 4, two idle CPUs after them; a drainer below
 * every worker first, above every one after them
 */
static void walk_order(void)
{
	struct pcb_cpu c[6] = { { .cpu = 1 }, { .cpu = 3 }, { .cpu = 6 }, { .cpu = 10000 },
				{ .cpu = 10001 }, { .cpu = 4 } };
	struct pcb_cpu *cpus[5] = { &c[0], &c[1], &c[2], &c[3], &c[4] }, *walk[6];
	const unsigned int want[3][6] = { { 1, 3, 4, 6, 10000, 10001 },
					  { 0, 1, 3, 6, 10000, 10001 },
					  { 1, 3, 6, 7, 10000, 10001 } };
	const unsigned int self[3] = { 4, 0, 7 };

	for (int k = 0; k < 3; k++) {
		int n, ok;

		c[5].cpu = self[k];
		n = pcb_drain_walk(walk, &c[5], cpus, 3, 5);
		ok = n == 6;
		for (int i = 0; ok && i < n; i++)
			ok = walk[i]->cpu == want[k][i];
		CHECK(ok, "the drainer on CPU %u: walked %d, in CPU order among the workers",
		      self[k], n);
	}
}

/* the work queued to idle virtual CPUs that a helper ran inside a timed drain, expected */
static unsigned long helper_work(const struct pcb_design *d, const struct pcb_coord *c,
				 int helpers_share, uint64_t drains)
{
	unsigned long queued = 0;

	if (!d->drain.flushes || helpers_share)
		return 0;
	/* a drain queues work to every charged virtual CPU, but qpw's isolated ones */
	for (int i = 0; i < c->nr_charged; i++)
		queued += !(c->cpus[c->nr_workers + i]->isolated && !strcmp(d->drain.name, "work+qpw"));
	return queued * drains;
}

/*
 * What the drains left on the isolated CPUs depends on how many fired:
 * each refill before a drain adds a batch, and refill_stock() flushes a
 * stock a second batch takes past MEMCG_CHARGE_BATCH, so an isolated stock
 * holds a batch after an odd number of drains and nothing after an even
 * one. So each charged isolated cache is refilled until it holds pages, and
 * one more drain must leave every one as it found it.
 */
static void isolated_left_alone(const struct pcb_model_ops *ops, const struct pcb_variant *v,
				void *shared, struct pcb_coord *c)
{
	unsigned long before[PCB_COORD_TEST_CPUS] = { 0 };

	for (int i = 0; i < c->nr_charged && i < PCB_COORD_TEST_CPUS; i++) {
		if (!c->cpus[i]->isolated)
			continue;
		for (int k = 0; k < 2 && !ops->stranded(shared, v, c->target, c->cpus[i]); k++)
			v->prefill(c->cpus[i], shared);
		before[i] = ops->stranded(shared, v, c->target, c->cpus[i]);
		CHECK(before[i] > 0, "%s: isolated cache %d refilled holds nothing", c->d->name, i);
	}
	pcb_coord_drain_once(c);
	for (int i = 0; i < c->nr_charged && i < PCB_COORD_TEST_CPUS; i++) {
		unsigned long after;

		if (!c->cpus[i]->isolated)
			continue;
		after = ops->stranded(shared, v, c->target, c->cpus[i]);
		CHECK(after == before[i], "%s: isolated cache %d was not left alone: %lu pages of %lu",
		      c->d->name, i, after, before[i]);
	}
}

/*
 * Seed 000's drain shape, for every design of the three models, on a
 * synthetic two-node machine: 16 CPUs online, the drainer's among them,
 * `stocks` of them holding charges (16: the drainer's too, which its own
 * drain empties in place), a quarter of the idle ones isolated, stood in
 * for by `helpers` threads (unpinned: the
 * machine is synthetic), which refill them before each drain and, where
 * the drain flushes its work and they are on no worker's CPU, run it
 * inside the drain, in parallel. No charge, page or object may be lost or
 * left on a CPU the design drains; every work item a flushing drain queued
 * to an idle CPU runs on its helper, or, where the helpers share a
 * worker's CPU, on the drainer.
 */
static void fixed_count(const struct pcb_model *m, const struct pcb_design *d, const void *cfg,
			const struct pcb_clock *clk, int stocks, int helpers, int helpers_share)
{
	const struct pcb_model_ops ops = pcb_model_ops(m);
	const struct pcb_variant *v = d->variant[ops.variant_index(cfg, d)];
	struct pcb_topo topo;
	struct pcb_coord_args args = {
		.model = m, .d = d, .v = v, .topo = &topo, .tsc_hz = clk->tsc_hz,
		.shape = { .stocks = stocks, .online = PCB_COORD_TEST_CPUS, .isolated_pct = 25,
			   .helper_cpu = { 1, 2, 3, 4, 5, 6, 7, 8 }, .nr_helpers = helpers,
			   .helpers_share = helpers_share },
	};
	void *shared;
	struct pcb_coord c;
	struct pcb_coord_plan plan = { .count = 25, .burst = 1 };
	char err[256], note[256];
	struct pcb_cpu *all[1 + PCB_COORD_TEST_CPUS];
	uint64_t start, fired, sampled;
	unsigned long want, ran;
	int isolated = 0, walked_self = 0;

	if (d->unavailable && d->unavailable()) {
		printf("%s: skipped: %s\n", d->name, d->unavailable());
		return;
	}
	CHECK(pcb_topo_load(&topo, "numa:2 core:8 pu:2", err, sizeof(err)) == 0, "%s", err);
	shared = ops.setup(&(struct pcb_model_setup){ .config = cfg, .d = d, .v = v,
						     .nr_cpus = args.shape.online, .note = note,
						     .notelen = sizeof(note) }, err, sizeof(err));
	CHECK(shared != NULL, "%s", err);
	if (!shared)
		return;
	args.shared = shared;
	CHECK(pcb_coord_setup(&c, &args, err, sizeof(err)) == 0, "%s: %s", d->name, err);
	CHECK(c.target == ops.drain_target(shared), "%s: the model's target is drained", d->name);
	CHECK(c.nr_online == 16 && c.nr_cpus == 15 && c.nr_virtual == 15 &&
	      c.nr_charged == (stocks < 15 ? stocks : 15) && c.self_charged == (stocks == 16),
	      "%s: %d online, %d idle, %d charged, the drainer's %s", d->name, c.nr_online,
	      c.nr_virtual, c.nr_charged, c.self_charged ? "too" : "not");
	for (int i = 0; i < c.nr_online; i++)
		walked_self += c.walk[i] == c.self;
	CHECK(walked_self == 1, "%s: the drainer's cache walked %d times", d->name, walked_self);
	CHECK(c.nr_helpers == helpers, "%s: the refills run on %d threads of their own, asked %d",
	      d->name, c.nr_helpers, helpers);
	CHECK(c.helpers_serve == (d->drain.flushes && !helpers_share),
	      "%s: %d helpers%s: idle work inside the drain %s on them", d->name, helpers,
	      helpers_share ? " on a worker's CPU" : "", c.helpers_serve ? "runs" : "does not run");
	for (int i = 0; i < c.nr_cpus; i++) {
		isolated += c.cpus[i]->isolated;
		CHECK(c.cpus[i]->node == topo.cpu[i % topo.nr_cpus].node,
		      "%s: virtual CPU %d placed on node %d", d->name, i, c.cpus[i]->node);
	}
	CHECK(isolated == 3, "%s: %d of 15 isolated, asked for 25%%", d->name, isolated);
	pcb_coord_reset(&c);

	/*
	 * The helpers, woken (or watching) in each drain, share the test
	 * machine's few CPUs with the other tests: drains may run late, and
	 * fewer fire by the deadline, however many helpers there are; every
	 * one that fires is checked
	 */
	start = pcb_tsc_now();
	fired = pcb_coord_run(&c, &plan, start, start + (uint64_t)(clk->tsc_hz /
						(c.helpers_serve ? 1 : 5)), 1);
	CHECK(fired > 0 && fired <= 25, "%s: fired %lu drains, asked for 25", d->name,
	      (unsigned long)fired);
	/* every drain timed: the drain figure's, or one sampled for its wakes alone */
	sampled = 0;
	for (uint64_t n = 1; n <= fired; n++)
		sampled += pcb_wake_sampled(d->drain.queues_work, n);
	CHECK(c.wake_n == sampled && c.drain.calls + c.wake_n == fired,
	      "%s: %lu timed, %lu sampled for their wakes, of %lu", d->name,
	      (unsigned long)c.drain.calls, (unsigned long)c.wake_n, (unsigned long)fired);
	if (d->drain.queues_work)
		CHECK(c.completed == fired && c.incomplete == 0, "%s: %lu completed",
		      d->name, (unsigned long)c.completed);
	/*
	 * Every item inside its drain but a drain's the deadline cut short
	 * (its flush gives up with the run; the rest runs after it)
	 */
	want = helper_work(d, &c, helpers_share, fired);
	ran = atomic_load(&c.helper_ran);
	CHECK(ran <= want && ran + want / (fired ? fired : 1) >= want &&
	      (!want || ran + atomic_load(&c.ran_after) == want),
	      "%s, %d helpers%s: %lu work items ran on them inside the drains and %lu after, "
	      "%lu expected", d->name, helpers, helpers_share ? " (sharing)" : "", ran,
	      (unsigned long)atomic_load(&c.ran_after), want);
	CHECK(atomic_load(&c.watching) == 0, "%s: helpers still watching", d->name);
	for (int i = c.nr_workers; d->drain.queues_work && i < c.nr_cpus; i++)
		CHECK(!pcb_virtual_served(c.cpus[i]), "%s: virtual CPU %d still served", d->name, i);

	if (d->skips_isolated) {
		isolated_left_alone(&ops, v, shared, &c);
		CHECK(c.stranded_n == fired + 1 && c.stranded_max > 0,
		      "%s: stranded pages reported", d->name);
	}
	for (int i = 0; i < c.nr_cpus; i++)
		if (!(d->skips_isolated && c.cpus[i]->isolated && i < c.nr_charged))
			CHECK(ops.cache_empty(shared, v, c.cpus[i]),
			      "%s: cache %d still holds pages after the drains", d->name, i);
	CHECK(ops.cache_empty(shared, v, c.self), "%s: the drainer's cache still holds pages",
	      d->name);

	/* every page charged is in a page counter's usage and a stock, once */
	all[0] = c.self;
	for (int i = 0; i < c.nr_cpus; i++)
		all[1 + i] = c.cpus[i];
	CHECK(ops.check(&(struct pcb_quiescent){ .shared = shared, .v = v, .cpus = all,
						.nr_cpus = 1 + c.nr_cpus }, err, sizeof(err)) == 0,
	      "%s: %s", d->name, err);

	pcb_coord_teardown(&c);
	ops.teardown(shared);
	pcb_topo_destroy(&topo);
}

/* a coordinator that drains nothing: the arrivals it was asked to wait for */
struct schedule {
	uint64_t when[22000];
	int n, drains, prepared;
};

static void sched_prepare(void *c)
{
	((struct schedule *)c)->prepared++;
}

static void sched_wait_until(void *c, uint64_t when)
{
	struct schedule *s = c;

	if (s->n < (int)(sizeof(s->when) / sizeof(s->when[0])))
		s->when[s->n] = when;
	s->n++;
}

static void sched_drain(void *c)
{
	((struct schedule *)c)->drains++;
}

static const struct pcb_seq_coord_ops sched_ops = {
	.prepare = sched_prepare, .wait_until = sched_wait_until, .drain = sched_drain,
};

/*
 * The schedule, its clock far from the deadline (the waits return at
 * once): drain.count's arrivals evenly spread, a period's up to the
 * deadline, bursts, and Poisson arrivals' gaps exponential of the mean
 */
static void drain_schedule(void)
{
	static struct schedule s;
	uint64_t start = pcb_tsc_now(), mean = 1ULL << 36, sum = 0, below = 0;
	struct pcb_seq_drains p = { .count = 25, .burst = 1 };
	double worst = 0;
	uint64_t rng = 12345;

	memset(&s, 0, sizeof(s));
	CHECK(pcb_seq_coord_run(&sched_ops, &s, &p, start, start + 26 * mean) == 25 &&
	      s.n == 25 && s.drains == 25 && s.prepared == 25, "count: %d arrivals, %d drains",
	      s.n, s.drains);
	for (int i = 0; i < s.n && i < 25; i++)
		CHECK(s.when[i] == start + (uint64_t)(i + 1) * mean, "count: arrival %d at +%lu",
		      i, (unsigned long)(s.when[i] - start));

	memset(&s, 0, sizeof(s));
	p = (struct pcb_seq_drains){ .period_ticks = mean, .burst = 3 };
	CHECK(pcb_seq_coord_run(&sched_ops, &s, &p, start, start + 10 * mean + mean / 2) == 30 &&
	      s.n == 10 && s.drains == 30 && s.prepared == 30,
	      "period: %d arrivals, %d drains, %d prepared, want 10, 30, 30", s.n, s.drains,
	      s.prepared);
	memset(&s, 0, sizeof(s));
	p = (struct pcb_seq_drains){ .burst = 1 };
	CHECK(pcb_seq_coord_run(&sched_ops, &s, &p, start, start + mean) == 0 && s.n == 0,
	      "no period, no count: %d arrivals", s.n);

	/* -ln(u) in integers, against libm's, on the same draws */
	for (int i = 0; i < 100000; i++) {
		uint64_t copy = rng, n = (pcb_rng_next(&copy) >> 11) + 1;
		double want = -log((double)n / 9007199254740992.0) * 4294967296.0;
		double got = (double)pcb_seq_exp_ticks(&rng, 1ULL << 32);

		if (fabs(got - want) > worst)
			worst = fabs(got - want);
	}
	/* 2^-28 of a unit, the bound pcb/sequence.h states, in 2^32 ticks a unit, and the floor */
	CHECK(worst <= 17, "exp: %.1f ticks of 2^32 off libm's -ln(u)", worst);
	rng = UINT64_MAX;
	CHECK(pcb_seq_exp_ticks(&rng, UINT64_MAX) <= UINT64_MAX, "exp: a huge mean saturates");

	memset(&s, 0, sizeof(s));
	p = (struct pcb_seq_drains){ .period_ticks = mean / 1024, .burst = 1, .poisson = true,
				     .rng = 7 };
	pcb_seq_coord_run(&sched_ops, &s, &p, start, start + 20000 * (mean / 1024));
	/* a Poisson count of mean 20000: within 4 of its deviations, 141 */
	CHECK(s.n > 19400 && s.n < 20600 && s.drains == s.n, "poisson: %d arrivals in 20000 means",
	      s.n);
	for (int i = 0; i < s.n && i < 22000; i++) {
		uint64_t gap = s.when[i] - (i ? s.when[i - 1] : start);

		sum += gap;
		below += gap < mean / 1024;
	}
	/* an exponential's mean, and P(gap < mean) = 1 - 1/e, to a few of their deviations */
	CHECK(s.n && fabs((double)sum / s.n / (double)(mean / 1024) - 1) < 0.03,
	      "poisson: mean gap %.4f of the mean", s.n ? (double)sum / s.n / (double)(mean / 1024) : 0);
	CHECK(s.n && fabs((double)below / s.n - (1 - exp(-1))) < 0.015,
	      "poisson: %.4f of gaps under the mean, want 0.632", s.n ? (double)below / s.n : 0);
}

int main(void)
{
	struct memcg_config memcg_cfg = { .workload = MEMCG_WL_MULTI_MEMCG, .depth = 3, .memcgs = 2,
					  .slots = 1, .nr_pages = 1, .hold = 1 };
	struct pcp_config pcp_cfg = { .workload = PCP_WL_ALLOC_FREE, .timing = PCB_TIMING_CALL,
				      .batch = 7, .high = 40, .zone_pages = 4096, .burst = 1,
				      .map_pages = 100, .accounting = PCP_ACCT_MEMCG, .depth = 3 };
	struct sheaves_config sheaves_cfg = { .workload = SHEAVES_WL_ALLOC_FREE, .object_size = 64,
					      .pool_mib = 4, .burst = 1 };
	struct pcb_clock clk;

	scripted_gaps();
	exact_contention();
	walk_order();
	drain_schedule();
	pcb_clock_calibrate(&clk, 20);
	/*
	 * one helper sharing a worker's CPU (the serial path), 12 caches
	 * charged; then four on CPUs of their own, every cache charged, the
	 * drainer's too
	 */
	for (int share = 1; share >= 0; share--) {
		int stocks = share ? 12 : PCB_COORD_TEST_CPUS, helpers = share ? 1 : 4;

		for (int i = 0; memcg_model.designs[i]; i++)
			fixed_count(&memcg_model, memcg_model.designs[i], &memcg_cfg, &clk,
				    stocks, helpers, share);
		for (int i = 0; pcp_model.designs[i]; i++)
			fixed_count(&pcp_model, pcp_model.designs[i], &pcp_cfg, &clk,
				    stocks, helpers, share);
		for (int i = 0; sheaves_model.designs[i]; i++)
			fixed_count(&sheaves_model, sheaves_model.designs[i], &sheaves_cfg, &clk,
				    stocks, helpers, share);
	}
	return check_summary();
}
