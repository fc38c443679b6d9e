/* SPDX-License-Identifier: MIT */
/*
 * The memcg model's torture (tests/unit/torture.h): for every design, build
 * variant and work delivery,
 * workers pinned two to a CPU charge and uncharge pages and allocate and
 * free objects (the mixed workload) over three memcgs of a three-level
 * hierarchy, while another thread fires drain_all_stock() as fast as it
 * can. At each quiescent point the charge invariant must hold (page_counter
 * usage at every level equals held + stocked pages + object pages; css and
 * objcg references, MEMCG_KMEM and slab statistics balance); a
 * drain_all_stock() then empties every stock for the designs that promise
 * it (remote and QSBR draining at once; work-based ones once the work ran,
 * except on isolated CPUs for isolated_skip and local_trylock, whose charges
 * stay); at the end every stock is empty and the check still holds.
 *
 * The rseq design is also run by time while another thread signals its
 * workers every few microseconds and moves one between CPUs: sections the
 * kernel aborts restart, and the invariant still holds (aborts counted).
 *
 * The same torture runs over a throwaway design,
 * tests/models/memcg/designs/test_xchg.h, built by the design template
 * exactly as the model's own are: adding a design takes one header and one
 * line in a designs.def.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testing.h"
#include "torture.h"
#include "../../harness/measure/tsc.h"
#include "../../kernels/locks/irq.h"
#include "../../kernels/locks/rseq.h"
#include "../../kernels/memcg/memcg_model.h"
#include "pcb/area.h"

/* a design built from a header in tests/models/memcg/, as a new design would be */
extern const struct pcb_design memcg_design_test_xchg;

#define ROUNDS 5
#define OPS 30000
/* a round of the rseq design under signals and migrations */
#define INJECT_SECONDS 0.05

static struct pcb_clock tsc;
static atomic_long injected;

static struct memcg_tree *tree_of(struct torture *t)
{
	return &((struct memcg_shared *)t->shared)->tree;
}

/* each CPU evicts a slot its own way; nocache opts every worker's CPU out but the first */
static void memcg_torture_cpu(struct torture *t, int i)
{
	struct memcg_cpu *mc = memcg_cpu(t->cpu[i]);

	mc->evict_round_robin = i & 1;
	mc->nocache = t->d->nocache && i > 0 && i < TORTURE_WORKERS;
}

/*
 * The mixed workload over the tree's three memcgs, each worker starting
 * at another; page counts of 1 to 3 and objects small and past a page
 */
static void memcg_torture_worker(struct torture *t, int i)
{
	struct memcg_worker *w = memcg_worker(t->w[i]);
	struct memcg_tree *tree = tree_of(t);

	w->nr_memcgs = 3;
	for (int m = 0; m < 3; m++)
		w->memcg[m] = tree->leaf[(m + i) % 3];
	w->workload = MEMCG_WL_MIXED;
	w->nr_pages = 1 + (unsigned int)i % 3;
	w->hold = 200;
	w->uncharge_refill = 40;
	w->obj_share = 50;
	w->obj_size = 16 + 512 * (unsigned int)i;	/* small, and past a page in 8 */
}

/* the root, or one subtree at a time */
static void *memcg_torture_target(struct torture *t, unsigned long n)
{
	struct memcg_tree *tree = tree_of(t);

	return tree->memcg[n % (unsigned long)tree->nr];
}

static void on_injected(int sig)
{
	(void)sig;
}

/* signals into the workers' sections, and worker 0 moved between CPUs */
static void *injector_thread(void *arg)
{
	struct torture *t = arg;
	unsigned int n = 0;

	while (!atomic_load(&t->stop_drainer)) {
		pthread_kill(t->tid[n % TORTURE_WORKERS], SIGURG);
		if (n % 64 == 0 && t->ncpu > 1) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)(n / 64) % t->ncpu, &set);
			pthread_setaffinity_np(t->tid[0], sizeof(set), &set);
		}
		n++;
		atomic_fetch_add(&injected, 1);
		usleep(10);
	}
	return NULL;
}

/* the stock served charges, and the rseq design's aborts */
static void memcg_torture_counts(struct torture *t)
{
	uint64_t hits = 0, aborts = 0;

	for (int i = 0; i < TORTURE_WORKERS; i++) {
		hits += t->cpu[i]->ev[MEMCG_EV_STOCK_HIT];
		aborts += t->cpu[i]->ev[MEMCG_EV_RSEQ_ABORT];
	}
	CHECK(t->d->nocache || hits > 0, "%s: the stock served charges", t->name);
	/* how many land inside a section is chance: rseq_restarts() checks one */
	if (t->o->beside)
		printf("%s: %ld signals and migrations, %llu sections aborted\n", t->name,
		       atomic_load(&injected), (unsigned long long)aborts);
}

/* the check itself catches a page counted twice, a lost reference and a wrong statistic */
static void memcg_torture_end(struct torture *t)
{
	struct memcg_tree *tree = tree_of(t);
	struct memcg_cpu *mc = memcg_cpu(t->cpu[0]);
	char msg[256];

	memcg_torture_counts(t);
	atomic_fetch_add(&tree->leaf[1]->memory.usage, 1);
	CHECK(torture_check(t, msg, sizeof(msg)) < 0 && strstr(msg, "usage"), "%s: stray page: %s",
	      t->name, msg);
	atomic_fetch_sub(&tree->leaf[1]->memory.usage, 1);
	mc->css_ref[tree->leaf[0]->css.id]--;
	CHECK(torture_check(t, msg, sizeof(msg)) < 0 && strstr(msg, "css references"),
	      "%s: lost ref: %s", t->name, msg);
	mc->css_ref[tree->leaf[0]->css.id]++;
	mc->vmstat[tree->leaf[2]->css.id][NR_SLAB_UNRECLAIMABLE_B] += 8;
	CHECK(torture_check(t, msg, sizeof(msg)) < 0 && strstr(msg, "slab"), "%s: slab stat: %s",
	      t->name, msg);
	mc->vmstat[tree->leaf[2]->css.id][NR_SLAB_UNRECLAIMABLE_B] -= 8;
	mc->lruvec_stat[tree->leaf[1]->css.id][NR_SLAB_RECLAIMABLE_B] += 8;
	CHECK(torture_check(t, msg, sizeof(msg)) < 0 && strstr(msg, "in its lruvec"),
	      "%s: lruvec stat: %s", t->name, msg);
	mc->lruvec_stat[tree->leaf[1]->css.id][NR_SLAB_RECLAIMABLE_B] -= 8;
}

static const struct torture_ops memcg_torture = {
	.rounds = ROUNDS, .ops = OPS, .cpu = memcg_torture_cpu, .worker = memcg_torture_worker,
	.target = memcg_torture_target, .end = memcg_torture_end,
};

/* memcg.max: what the workers hold of a leaf, together, passes it */
#define LIMIT_PAGES 300

/*
 * At memory.max the workers' charges drain every worker's stock from the
 * charge path (try_charge_memcg()'s drain_all_stock()), beside the
 * drainer's: such drains ran, charges failed at the limit, and no leaf's
 * usage passed it
 */
static void memcg_torture_end_limited(struct torture *t)
{
	struct memcg_tree *tree = tree_of(t);
	uint64_t drains = 0, failed = 0;

	for (int i = 0; i < TORTURE_WORKERS; i++) {
		drains += t->w[i]->dbg.stat[MEMCG_FN_DRAIN_ALL_STOCK].calls +
			  t->w[i]->dbg.stat[MEMCG_FN_DRAIN_ALL_STOCK].interrupted_calls;
		failed += t->w[i]->failed;
	}
	CHECK(drains > 0 && failed > 0, "%s: %lu drains from the charge path, %lu charges failed",
	      t->name, (unsigned long)drains, (unsigned long)failed);
	for (int m = 0; m < 3; m++)
		CHECK(tree->leaf[m]->memory.watermark <= LIMIT_PAGES,
		      "%s: leaf %d's usage reached %lu, memory.max %d", t->name, m,
		      (unsigned long)tree->leaf[m]->memory.watermark, LIMIT_PAGES);
	memcg_torture_end(t);
}

/*
 * One design in one variant with one delivery: three levels, three leaves
 * (multi_memcg's tree); the rseq design in one slot runs by time, under
 * signals and migrations. offset: the stock packed at that byte of its
 * line, or -1 where the design's kernel puts it.
 */
static void run_one(const struct pcb_design *d, int multi, int irq, enum pcb_delivery delivery,
		    int offset)
{
	struct memcg_config cfg = { .slots = multi ? 7 : 1, .irq_model = irq, .depth = 3,
				    .workload = MEMCG_WL_MULTI_MEMCG, .memcgs = 3,
				    .stock_placement = offset < 0 ? MEMCG_STOCK_PLACE_DESIGN :
						       MEMCG_STOCK_PLACE_PACKED,
				    .stock_offset = offset < 0 ? 0 : offset };
	struct torture_ops o = memcg_torture;

	if (!strcmp(d->drain.name, "rseq_fence") && !multi) {
		o.ops = 0;
		o.ticks = (uint64_t)(tsc.tsc_hz * INJECT_SECONDS);
		o.beside = injector_thread;
		atomic_store(&injected, 0);
	}
	torture_run(&memcg_model, d, &cfg, delivery, &o);
}

/* memcg.max: the workers at the limit of each leaf, draining from the charge path */
static void run_limited(const struct pcb_design *d, enum pcb_delivery delivery)
{
	struct memcg_config cfg = { .slots = 1, .depth = 3, .workload = MEMCG_WL_MULTI_MEMCG,
				    .memcgs = 3, .max = LIMIT_PAGES };
	struct torture_ops o = memcg_torture;

	o.end = memcg_torture_end_limited;
	torture_run(&memcg_model, d, &cfg, delivery, &o);
}

/*
 * Objects and pages mixed, a few objects held, so that the object stock's
 * cached slab statistics never pass a page: only the drains and the
 * workers' exits flush them (drain_obj_stock(), 7.3's
 * drain_obj_stock_stats() through NODE_DATA()), which the invariant's
 * slab count then checks
 */
static void few_objects_worker(struct torture *t, int i)
{
	struct memcg_worker *w = memcg_worker(t->w[i]);

	memcg_torture_worker(t, i);
	w->hold = 3;
	w->obj_size = 16;
}

static void run_objects(const struct pcb_design *d, enum pcb_delivery delivery)
{
	struct memcg_config cfg = { .slots = 1, .depth = 3, .workload = MEMCG_WL_MULTI_MEMCG,
				    .memcgs = 3 };
	struct torture_ops o = memcg_torture;

	o.worker = few_objects_worker;
	torture_run(&memcg_model, d, &cfg, delivery, &o);
}

/* every variant and delivery the design has */
static void torture(const struct pcb_design *d)
{
	for (int del = 0; del <= PCB_DELIVER_POLL; del++)
		if (torture_delivers(d, del))
			run_one(d, 0, 0, (enum pcb_delivery)del, -1);
#if defined(__SANITIZE_THREAD__)
	run_one(d, 1, 1, PCB_DELIVER_POLL, -1);
#else
	run_one(d, 1, 1, d->drain.queues_work ? PCB_DELIVER_SIGNAL : PCB_DELIVER_POLL, -1);
#endif
	run_one(d, 0, PCB_IRQ_KERNEL, PCB_DELIVER_POLL, -1);
	/*
	 * the stock over three lines, stats_updates right after it; not 7.3's
	 * two aligned stocks, whose packing the rules refuse (stock_places())
	 */
	if (!((const struct memcg_design_info *)d->info)->split)
		run_one(d, 0, 0, PCB_DELIVER_POLL, 56);
#if defined(__SANITIZE_THREAD__)
	run_limited(d, PCB_DELIVER_POLL);
#else
	run_limited(d, d->drain.queues_work ? PCB_DELIVER_SIGNAL : PCB_DELIVER_POLL);
#endif
	run_objects(d, PCB_DELIVER_POLL);
}

/*
 * The abort path itself, made certain: the section's first load faults on
 * a page without access, the kernel delivers SIGSEGV and, since the thread
 * is inside the section, resumes it at the abort handler after the
 * signature; the handler opened the page, the section restarts and commits.
 */
static char *fault_page;
static int faults;

static void on_fault(int sig)
{
	(void)sig;
	faults++;
	mprotect(fault_page, 4096, PROT_READ | PROT_WRITE);
}

static void rseq_restarts(void)
{
	struct sigaction sa = { .sa_handler = on_fault }, old;
	rseq_stock_lock_t lock;
	unsigned long aborts = 0;
	uint32_t *ctr;
	void **cached;
	enum rseq_fast r;

	if (pcb_rseq_unavailable()) {
		printf("rseq: skipped: %s\n", pcb_rseq_unavailable());
		return;
	}
	fault_page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(fault_page != MAP_FAILED, "rseq: a page");
	cached = (void **)fault_page;
	ctr = (uint32_t *)(fault_page + 64);
	*cached = &lock;
	*ctr = 10;
	rseq_stock_lock_init(&lock, rseq_cpu_id());
	sigaction(SIGSEGV, &sa, &old);
	mprotect(fault_page, 4096, PROT_NONE);
	/* the caller may move between reading its CPU and the section: then it says so */
	do
		r = rseq_stock_add(&lock, cached, &lock, NULL, NULL, ctr, false, -3, 0, UINT32_MAX,
				   &aborts);
	while (r == RSEQ_FAST_SLOW && (rseq_stock_lock_init(&lock, rseq_cpu_id()), 1));
	sigaction(SIGSEGV, &old, NULL);
	CHECK(r == RSEQ_FAST_DONE && *ctr == 7, "rseq: the section committed after its restart "
	      "(%d, counter %u)", (int)r, *ctr);
	CHECK(faults == 1 && aborts == 1, "rseq: one fault, one abort, one restart (%d, %lu)",
	      faults, aborts);
	/* a stopped stock and a miss are told apart, and nothing is stored */
	arch_spin_trylock(&lock.stop);
	CHECK(rseq_stock_add(&lock, cached, &lock, NULL, NULL, ctr, false, -3, 0, UINT32_MAX,
			     &aborts) == RSEQ_FAST_SLOW && *ctr == 7, "rseq: a stopped stock");
	arch_spin_unlock(&lock.stop);
	lock.cpu = rseq_cpu_id();
	CHECK(rseq_stock_add(&lock, cached, &lock, NULL, NULL, ctr, false, -8, 0, UINT32_MAX,
			     &aborts) == RSEQ_FAST_MISS && *ctr == 7, "rseq: a miss stores nothing");
	/*
	 * The commit store is inside the section (before post_commit_offset's
	 * end): with the counter's page read-only, the store faults, the section
	 * aborts and restarts, and commits once.
	 */
	faults = 0;
	aborts = 0;
	*ctr = 10;
	lock.cpu = rseq_cpu_id();
	{
		static void *readable;

		readable = &lock;
		sigaction(SIGSEGV, &sa, &old);
		mprotect(fault_page, 4096, PROT_READ);
		do
			r = rseq_stock_add(&lock, &readable, &lock, NULL, NULL, ctr, false, -3, 0,
					   UINT32_MAX, &aborts);
		while (r == RSEQ_FAST_SLOW && (lock.cpu = rseq_cpu_id(), 1));
		sigaction(SIGSEGV, &old, NULL);
	}
	CHECK(r == RSEQ_FAST_DONE && *ctr == 7 && faults == 1 && aborts == 1,
	      "rseq: a fault on the commit store aborts the section (%d, counter %u, %d faults, "
	      "%lu aborts)", (int)r, *ctr, faults, aborts);
	munmap(fault_page, 4096);
}

/*
 * Where the stock sits: packed where the design's kernel defines it with
 * DEFINE_PER_CPU (v6.2's), aligned where with _ALIGNED (seed 000's patch
 * 1/5, seed 002); stock.placement over that; and the area's layout for
 * each, stats_updates right after a packed stock and on a line of its own
 * after an aligned one, nothing overlapping.
 */
static void stock_places(const struct pcb_design *d)
{
	const bool aligned = !strncmp(d->name, "spinlock", 8) || !strncmp(d->name, "local_trylock", 13);
	const struct memcg_design_info *info = d->info;
	struct memcg_config cfg = { .stock_offset = 40 };
	struct pcb_stock_place p = memcg_place(&cfg, d);

	CHECK(p.packed == !aligned && p.offset == (aligned ? 0u : 40u),
	      "%s: its kernel's placement: %s at %u", d->name, p.packed ? "packed" : "aligned",
	      p.offset);
	cfg.stock_placement = MEMCG_STOCK_PLACE_ALIGNED;
	p = memcg_place(&cfg, d);
	CHECK(!p.packed && !p.offset, "%s: stock.placement = aligned", d->name);
	cfg.stock_placement = MEMCG_STOCK_PLACE_PACKED;
	p = memcg_place(&cfg, d);
	CHECK(p.packed && p.offset == 40, "%s: stock.placement = packed", d->name);
	/* 7.3's two aligned stocks: no kernel packs them, so the rules refuse to */
	if (info->split) {
		struct pcb_refusal r = { 0 };

		cfg.timing = PCB_TIMING_CALL;
		cfg.nr_pages = 1;
		CHECK(memcg_rules(&cfg, PCB_TIMING_CALL, d, &r) < 0 && strstr(r.msg, "ALIGNED"),
		      "%s: stock.placement = packed refused (%s)", d->name, r.msg);
	}
	for (int i = 0; i < PCB_MAX_VARIANTS && d->variant[i]; i++) {
		const struct pcb_variant *v = d->variant[i];

		for (unsigned int off = 0; off <= PCB_CACHE_LINE; off += sizeof(void *)) {
			/* off == PCB_CACHE_LINE: aligned */
			const struct pcb_stock_place at = { .packed = off < PCB_CACHE_LINE,
							    .offset = off % PCB_CACHE_LINE };
			const struct pcb_area_layout l = pcb_area_layout(d, v, at);
			const size_t end = l.stock + v->stock_size;
			const size_t next_end = l.next + sizeof(unsigned int);
			bool ok = l.stock >= v->cpu_size && l.stock % PCB_CACHE_LINE == at.offset &&
				  l.next >= end && next_end <= l.size &&
				  (!l.spare || (l.spare >= next_end && l.spare % PCB_CACHE_LINE == 0 &&
						l.spare + v->stock_size <= l.size));

			if (at.packed)
				ok = ok && l.next - end < sizeof(long) && l.next % sizeof(long) == 0;
			else
				ok = ok && l.next % PCB_CACHE_LINE == 0 && l.next - end < PCB_CACHE_LINE;
			CHECK(ok, "%s %s: %s at %u: stock %zu (%zu bytes), next %zu, spare %zu, "
			      "size %zu", d->name, v->name, at.packed ? "packed" : "aligned",
			      at.offset, l.stock, v->stock_size, l.next, l.spare, l.size);
		}
	}
}

/* the variant a configuration runs is the build meson named for it: both read variants.def */
static void variant_names(const struct pcb_design *d)
{
	for (int slots = 1; slots <= 7; slots += 6)
		for (int irq = 0; irq < PCB_IRQ_MODELS; irq++) {
			struct memcg_config cfg = { .slots = slots, .irq_model = irq };
			int index = memcg_model.ops.variant_index(&cfg, d);
			const struct pcb_variant *v = d->variant[index];
			const struct memcg_design_info *info = d->info;
			char name[16];

			/* a design whose kernel fixes NR_MEMCG_STOCK runs that build */
			snprintf(name, sizeof(name), "s%d_i%d", info->slots ? info->slots : slots, irq);
			CHECK(!strcmp(v->name, name), "%s: slots %d, irq_model %d: variant %s",
			      d->name, slots, irq, v->name);
		}
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_injected };

	sigaction(SIGURG, &sa, NULL);
	pcb_clock_calibrate(&tsc, 20);
	rseq_restarts();
	for (int i = 0; memcg_model.designs[i]; i++) {
		variant_names(memcg_model.designs[i]);
		stock_places(memcg_model.designs[i]);
		torture(memcg_model.designs[i]);
	}
	torture(&memcg_design_test_xchg);
	CHECK(!strcmp(memcg_design_test_xchg.name, "test_xchg") &&
	      !memcg_design_test_xchg.drain.queues_work, "the test design is what its header says");
	return check_summary();
}
