/* SPDX-License-Identifier: MIT */
/*
 * The torture test: for every design, build variant and work delivery,
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
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testing.h"
#include "../harness/run/cpu_area.h"
#include "../harness/run/work.h"
#include "../kernels/locks/irq.h"
#include "../kernels/locks/rseq.h"
#include "../kernels/memcg/memcg_model.h"

/* a design built from a header in tests/models/memcg/, as a new design would be */
extern const struct pcb_design memcg_design_test_xchg;

#define NR_WORKERS 4
#define ROUNDS 5
#define OPS 30000
/* a round of the rseq design under signals and migrations */
#define INJECT_SECONDS 0.05

static struct pcb_clock tsc;

struct ctx {
	const struct pcb_design *d;
	const struct pcb_variant *v;
	enum pcb_delivery delivery;
	struct memcg_tree tree;
	struct memcg_worker *w[NR_WORKERS];
	struct pcb_worker *pw[NR_WORKERS];	/* the same, as the harness sees them */
	struct pcb_cpu *cpu[NR_WORKERS + 1];	/* the last is the drainer's */
	struct pcb_workq wq[NR_WORKERS];
	pthread_barrier_t bar;
	atomic_int stop_drainer;
	atomic_long drains;
	pthread_t tid[NR_WORKERS];
	int inject;			/* rseq: signals and migrations during each round */
	atomic_long injected;
	int ncpu;
	int failed_setup;
};

struct warg {
	struct ctx *x;
	int i;
};

static struct pcb_cpu *new_cpu(const struct pcb_variant *v, const struct pcb_design *d,
			       unsigned int id, bool isolated)
{
	void *area = aligned_alloc(4096, (pcb_cpu_area_size(d, v) + 4095) & ~(size_t)4095);

	return pcb_cpu_area_init(area, d, v, id, 0, isolated);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void *worker_thread(void *arg)
{
	struct warg *a = arg;
	struct ctx *x = a->x;
	struct memcg_worker *mw = x->w[a->i];
	struct pcb_worker *w = &mw->w;
	int os = a->i % x->ncpu;
	char err[256];
	struct pcb_work work = pcb_drain_work(x->v, w->cpu);

	pin(os);
	if (x->d->drain.queues_work &&
	    pcb_workq_start(&x->wq[a->i], &work, x->delivery, os, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		x->failed_setup = 1;
	}
	if (x->v->thread_start)
		x->v->thread_start();
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&x->bar);	/* round starts */
		w->ops = 0;
		w->ops_limit = x->inject ? 0 : OPS;
		w->deadline = pcb_tsc_now() + (uint64_t)(tsc.tsc_hz * INJECT_SECONDS);
		x->v->run(w);
		pthread_barrier_wait(&x->bar);	/* quiescent */
		pthread_barrier_wait(&x->bar);	/* checked and drained */
	}
	if (x->d->drain.queues_work)
		pcb_workq_stop(&x->wq[a->i]);
	x->v->release(w);
	x->v->drain_local(w->cpu);
	if (x->v->thread_stop)
		x->v->thread_stop();
	return NULL;
}

static void *drainer_thread(void *arg)
{
	struct ctx *x = arg;
	struct pcb_cpu *self = x->cpu[NR_WORKERS];
	unsigned int n = 0;

	while (!atomic_load(&x->stop_drainer)) {
		/* the root, or one subtree at a time */
		struct mem_cgroup *root = x->tree.memcg[n++ % (unsigned int)x->tree.nr];

		x->v->drain_all(self, root, x->cpu, NR_WORKERS);
		atomic_fetch_add(&x->drains, 1);
	}
	return NULL;
}

static void on_injected(int sig)
{
	(void)sig;
}

/* signals into the workers' sections, and worker 0 moved between CPUs */
static void *injector_thread(void *arg)
{
	struct ctx *x = arg;
	unsigned int n = 0;

	while (!atomic_load(&x->stop_drainer)) {
		pthread_kill(x->tid[n % NR_WORKERS], SIGURG);
		if (n % 64 == 0 && x->ncpu > 1) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)(n / 64) % x->ncpu, &set);
			pthread_setaffinity_np(x->tid[0], sizeof(set), &set);
		}
		n++;
		atomic_fetch_add(&x->injected, 1);
		usleep(10);
	}
	return NULL;
}

/* work-based designs: wait until the owners ran what was queued */
static void wait_for_work(struct ctx *x)
{
	/* polled work waits for its owner's next operation */
	pcb_work_wait_idle(x->cpu, NR_WORKERS, (uint64_t)3e9, 0);
}

/* the charge invariant over the workers, their CPUs and the drainer's */
static int check(struct ctx *x, char *msg, size_t len)
{
	struct pcb_quiescent q = { .v = x->v, .w = x->pw, .nr_workers = NR_WORKERS, .cpus = x->cpu,
				   .nr_cpus = NR_WORKERS + 1 };

	return memcg_check_charges(&x->tree, &q, msg, len);
}

static int stock_empty(struct ctx *x, int i)
{
	return memcg_stock_empty(x->v, x->cpu[i]->stock, &x->tree);
}

static void run_one(const struct pcb_design *d, int multi, int irq, enum pcb_delivery delivery)
{
	struct memcg_config cfg = { .slots = multi ? 7 : 1, .irq_model = irq };
	struct ctx x = { .d = d, .v = d->variant[memcg_model.variant_index(&cfg, d)],
			 .delivery = delivery };
	pthread_t *tid = x.tid, drainer, injector;
	struct warg args[NR_WORKERS];
	char name[128], msg[256];

	snprintf(name, sizeof(name), "%s slots=%d irq=%d%s%s", d->name, multi ? 7 : 1, irq,
		 d->drain.queues_work ? " delivery=" : "",
		 d->drain.queues_work ? pcb_delivery_name[delivery] : "");
	if (d->unavailable && d->unavailable()) {
		printf("%s: skipped: %s\n", name, d->unavailable());
		return;
	}
	if (d->drain.queues_work && delivery == PCB_DELIVER_KWORKER &&
	    !pcb_workq_fifo_permitted()) {
		printf("%s: skipped: SCHED_FIFO is not permitted here (CAP_SYS_NICE)\n", name);
		return;
	}
	x.ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (x.ncpu < 1)
		x.ncpu = 1;
	CHECK(memcg_tree_create(&x.tree, 3, 3) == 0, "tree");
	pcb_nr_online_cpus = NR_WORKERS;
	x.inject = !strcmp(d->drain.name, "rseq_fence") && !multi;
	for (int i = 0; i <= NR_WORKERS; i++) {
		/*
		 * a worker's CPU is the one it runs on (two to a CPU); the drainer's
		 * none; the last worker's is isolated
		 */
		x.cpu[i] = new_cpu(x.v, d, (unsigned int)(i < NR_WORKERS ? i % x.ncpu : i),
				   i == NR_WORKERS - 1);
		memcg_cpu(x.cpu[i])->evict_round_robin = i & 1;
		memcg_cpu(x.cpu[i])->evict_state = 2463534242u;
	}
	/* nocache opts every CPU out but the first */
	for (int i = 1; i < NR_WORKERS && d->nocache; i++)
		memcg_cpu(x.cpu[i])->nocache = true;
	for (int i = 0; i < NR_WORKERS; i++) {
		struct memcg_worker *w = aligned_alloc(64, sizeof(*w));

		memset(w, 0, sizeof(*w));
		w->w.cpu = x.cpu[i];
		x.cpu[i]->h.dbg = &w->w.dbg;
		w->nr_memcgs = 3;
		for (int m = 0; m < 3; m++)
			w->memcg[m] = x.tree.leaf[(m + i) % 3];
		w->pgdat = &x.tree.pgdat[0];
		w->w.timing = PCB_TIMING_CALL;
		w->workload = MEMCG_WL_MIXED;
		w->nr_pages = 1 + (unsigned int)i % 3;
		w->hold = 200;
		w->uncharge_refill = 40;
		w->obj_share = 50;
		w->obj_size = 16 + 512 * (unsigned int)i;	/* small, and past a page in 8 */
		w->w.rng = 0x1234567ULL * (uint64_t)(i + 1);
		x.w[i] = w;
		x.pw[i] = &w->w;
	}
	pthread_barrier_init(&x.bar, NULL, NR_WORKERS + 1);
	for (int i = 0; i < NR_WORKERS; i++) {
		args[i].x = &x;
		args[i].i = i;
		pthread_create(&tid[i], NULL, worker_thread, &args[i]);
	}

	for (int r = 0; r < ROUNDS; r++) {
		atomic_store(&x.stop_drainer, 0);
		pthread_barrier_wait(&x.bar);	/* round starts: every work queue is set up */
		pthread_create(&drainer, NULL, drainer_thread, &x);
		if (x.inject)
			pthread_create(&injector, NULL, injector_thread, &x);
		pthread_barrier_wait(&x.bar);	/* quiescent */
		atomic_store(&x.stop_drainer, 1);
		pthread_join(drainer, NULL);
		if (x.inject)
			pthread_join(injector, NULL);
		wait_for_work(&x);
		CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, round %d: %s", name, r, msg);

		/* a drain of the root now empties the stocks the design promises to */
		x.v->drain_all(x.cpu[NR_WORKERS], x.tree.memcg[0], x.cpu, NR_WORKERS);
		wait_for_work(&x);
		for (int i = 0; i < NR_WORKERS; i++) {
			int promised = !d->drain.queues_work ||
				       (delivery != PCB_DELIVER_POLL &&
					!(d->skips_isolated && x.cpu[i]->isolated));

			/* a FLUSHING_CACHED_CHARGE left set by a poll round skips a CPU */
			if (promised && r == 0)
				CHECK(stock_empty(&x, i), "%s: CPU %d's stock not drained", name, i);
		}
		CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, after a drain: %s", name, msg);
		pthread_barrier_wait(&x.bar);	/* checked and drained */
	}
	for (int i = 0; i < NR_WORKERS; i++)
		pthread_join(tid[i], NULL);
	CHECK(!x.failed_setup, "%s: setup", name);

	CHECK(check(&x, msg, sizeof(msg)) == 0, "%s, at the end: %s", name, msg);
	for (int i = 0; i < NR_WORKERS; i++)
		CHECK(stock_empty(&x, i), "%s: CPU %d's stock not empty at the end", name, i);
	{
		uint64_t ops = 0, hits = 0;

		for (int i = 0; i < NR_WORKERS; i++) {
			ops += x.w[i]->w.ops;
			hits += x.cpu[i]->ev[MEMCG_EV_STOCK_HIT];
		}
		CHECK(ops > 0, "%s: the workers did work", name);
		CHECK(d->nocache || hits > 0, "%s: the stock served charges", name);
		CHECK(atomic_load(&x.drains) > 0, "%s: the drainer ran", name);
		if (x.inject) {
			uint64_t aborts = 0;

			for (int i = 0; i < NR_WORKERS; i++)
				aborts += x.cpu[i]->ev[MEMCG_EV_RSEQ_ABORT];
			/* how many land inside a section is chance: rseq_restarts() checks one */
			printf("%s: %ld signals and migrations, %llu sections aborted\n", name,
			       atomic_load(&x.injected), (unsigned long long)aborts);
		}
	}

	/* the check itself catches a page counted twice, and a lost reference */
	atomic_fetch_add(&x.tree.leaf[1]->memory.usage, 1);
	CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "usage"), "%s: stray page: %s", name,
	      msg);
	atomic_fetch_sub(&x.tree.leaf[1]->memory.usage, 1);
	memcg_cpu(x.cpu[0])->css_ref[x.tree.leaf[0]->css.id]--;
	CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "css references"), "%s: lost ref: %s",
	      name, msg);
	memcg_cpu(x.cpu[0])->css_ref[x.tree.leaf[0]->css.id]++;
	memcg_cpu(x.cpu[0])->vmstat[x.tree.leaf[2]->css.id][NR_SLAB_UNRECLAIMABLE_B] += 8;
	CHECK(check(&x, msg, sizeof(msg)) < 0 && strstr(msg, "slab"), "%s: slab stat: %s", name,
	      msg);

	for (int i = 0; i < NR_WORKERS; i++)
		free(x.w[i]);
	for (int i = 0; i <= NR_WORKERS; i++)
		free(x.cpu[i]);
	pthread_barrier_destroy(&x.bar);
	memcg_tree_destroy(&x.tree);
}

/* every variant and delivery the design has */
static void torture(const struct pcb_design *d)
{
	{
		if (d->drain.queues_work) {
			for (int del = 0; del <= PCB_DELIVER_POLL; del++) {
#if defined(__SANITIZE_THREAD__)
				/*
				 * The kworker helper must never block inside a drain, and the
				 * ThreadSanitizer runtime takes locks of its own there; it also
				 * holds a signal for a thread blocked in a barrier until the
				 * barrier opens. Poll delivery is the one it checks faithfully.
				 */
				if (del != PCB_DELIVER_POLL)
					continue;
#endif
				run_one(d, 0, 0, (enum pcb_delivery)del);
			}
#if defined(__SANITIZE_THREAD__)
			run_one(d, 1, 1, PCB_DELIVER_POLL);
#else
			run_one(d, 1, 1, PCB_DELIVER_SIGNAL);
#endif
		} else {
			run_one(d, 0, 0, PCB_DELIVER_POLL);
			run_one(d, 1, 1, PCB_DELIVER_POLL);
		}
		run_one(d, 0, PCB_IRQ_KERNEL, PCB_DELIVER_POLL);
	}
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

/* the variant a configuration runs is the build meson named for it: both read variants.def */
static void variant_names(const struct pcb_design *d)
{
	for (int slots = 1; slots <= 7; slots += 6)
		for (int irq = 0; irq < PCB_IRQ_MODELS; irq++) {
			struct memcg_config cfg = { .slots = slots, .irq_model = irq };
			const struct pcb_variant *v = d->variant[memcg_model.variant_index(&cfg, d)];
			char name[16];

			snprintf(name, sizeof(name), "s%d_i%d", slots, irq);
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
		torture(memcg_model.designs[i]);
	}
	torture(&memcg_design_test_xchg);
	CHECK(!strcmp(memcg_design_test_xchg.name, "test_xchg") &&
	      !memcg_design_test_xchg.drain.queues_work, "the test design is what its header says");
	return check_summary();
}
