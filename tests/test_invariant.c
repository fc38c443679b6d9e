/* SPDX-License-Identifier: MIT */
/*
 * The charge invariant under concurrency, for every design and timing mode:
 * workers charge and uncharge through the design's own loop, two leaves of a
 * three-level hierarchy, for several rounds. Designs that can drain a remote
 * stock have another thread draining every stock while the workers run. At
 * each quiescent point, page_counter usage at every level must equal held plus
 * stocked pages, and css references must balance; after the owners drain and
 * give everything back, usage and references are zero.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "../harness/check.h"
#include "../harness/design.h"
#include "../harness/worker.h"
#include "../kernels/memcontrol.h"
#include "../kernels/percpu.h"

#define NR_WORKERS 4
#define ROUNDS 8
#define OPS 200000

struct ctx {
	const struct pcb_design *d;
	struct pcb_worker *w[NR_WORKERS + 1];	/* the last one is the drainer's CPU */
	pthread_barrier_t bar;
	atomic_int stop_drainer;
	atomic_long drains;
	int round;
};

static struct pcb_worker *new_worker(const struct pcb_design *d, unsigned int cpu,
				     struct mem_cgroup *memcg, enum pcb_timing timing)
{
	struct pcb_worker *w = aligned_alloc(64, sizeof(*w));
	size_t area = 1024 + d->stock_size;
	struct pcb_cpu *c = aligned_alloc(64, (area + 63) & ~(size_t)63);

	memset(w, 0, sizeof(*w));
	memset(c, 0, area);
	c->cpu = cpu;
	c->stock = (char *)c + 1024;
	c->dbg = &w->dbg;
	d->stock_init(c->stock);
	w->cpu = c;
	w->memcg = memcg;
	w->timing = timing;
	w->nr_pages = 1 + cpu % 3;
	w->hold_pages = 300;
	w->uncharge_refill = 40;
	w->rng = 0x1234567ULL * (cpu + 1);
	return w;
}

static void *worker_thread(void *arg)
{
	struct ctx *x = ((void **)arg)[0];
	struct pcb_worker *w = ((void **)arg)[1];

	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&x->bar);	/* round starts */
		w->ops = 0;
		w->ops_limit = OPS;
		x->d->run(w);
		/* work-based designs drain on the owner: do it every other round */
		if (r % 2)
			x->d->drain_local(w->cpu);
		pthread_barrier_wait(&x->bar);	/* quiescent */
		pthread_barrier_wait(&x->bar);	/* checked */
	}
	x->d->release(w);
	x->d->drain_local(w->cpu);
	return NULL;
}

static void *drainer_thread(void *arg)
{
	struct ctx *x = arg;
	struct pcb_cpu *self = x->w[NR_WORKERS]->cpu;

	while (!atomic_load(&x->stop_drainer)) {
		for (int i = 0; i < NR_WORKERS; i++)
			x->d->drain_remote(self, x->w[i]->cpu);
		atomic_fetch_add(&x->drains, 1);
	}
	return NULL;
}

static void run_design(const struct pcb_design *d, enum pcb_timing timing)
{
	struct memcg_tree tree;
	struct ctx x = { .d = d };
	pthread_t tid[NR_WORKERS], drainer;
	void *args[NR_WORKERS][2];
	char msg[256];
	const char *mode = timing == PCB_TIMING_CALL ? "call" : "batch";

	CHECK(memcg_tree_create(&tree, 3, 2) == 0, "tree");
	for (int i = 0; i <= NR_WORKERS; i++)
		x.w[i] = new_worker(d, (unsigned int)i, i < NR_WORKERS ? tree.leaf[i % 2] : NULL,
				    timing);
	pthread_barrier_init(&x.bar, NULL, NR_WORKERS + 1);
	for (int i = 0; i < NR_WORKERS; i++) {
		args[i][0] = &x;
		args[i][1] = x.w[i];
		pthread_create(&tid[i], NULL, worker_thread, args[i]);
	}

	for (int r = 0; r < ROUNDS; r++) {
		atomic_store(&x.stop_drainer, 0);
		if (d->drain_remote)
			pthread_create(&drainer, NULL, drainer_thread, &x);
		pthread_barrier_wait(&x.bar);	/* round starts */
		pthread_barrier_wait(&x.bar);	/* quiescent */
		if (d->drain_remote) {
			atomic_store(&x.stop_drainer, 1);
			pthread_join(drainer, NULL);
		}
		CHECK(pcb_check_charges(d, &tree, x.w, NR_WORKERS + 1, msg, sizeof(msg)) == 0,
		      "%s/%s round %d: %s", d->name, mode, r, msg);
		pthread_barrier_wait(&x.bar);	/* checked */
	}
	for (int i = 0; i < NR_WORKERS; i++)
		pthread_join(tid[i], NULL);

	CHECK(pcb_check_charges(d, &tree, x.w, NR_WORKERS + 1, msg, sizeof(msg)) == 0,
	      "%s/%s at the end: %s", d->name, mode, msg);
	for (int m = 0; m < tree.nr; m++) {
		struct pcb_cpu *cpus[NR_WORKERS + 1];

		for (int i = 0; i <= NR_WORKERS; i++)
			cpus[i] = x.w[i]->cpu;
		CHECK(page_counter_read(&tree.memcg[m]->memory) == 0, "%s/%s: level %d usage %lu",
		      d->name, mode, tree.memcg[m]->level, page_counter_read(&tree.memcg[m]->memory));
		if (m)
			CHECK(memcg_css_refs(tree.memcg[m], cpus, NR_WORKERS + 1) == 0,
			      "%s/%s: memcg %d refs %ld", d->name, mode, m,
			      memcg_css_refs(tree.memcg[m], cpus, NR_WORKERS + 1));
	}
	{
		uint64_t charged = 0, uncharged = 0, ops = 0;

		for (int i = 0; i < NR_WORKERS; i++) {
			ops += x.w[i]->ops;
			charged += x.w[i]->charged;
		}
		(void)uncharged;
		CHECK(ops > 0 && charged > 0, "%s/%s: the workers did work", d->name, mode);
	}
	if (d->drain_remote)
		CHECK(atomic_load(&x.drains) > 0, "%s/%s: the drainer ran", d->name, mode);

	/* the check itself must catch a page counted twice */
	atomic_fetch_add(&tree.leaf[1]->memory.usage, 1);
	CHECK(pcb_check_charges(d, &tree, x.w, NR_WORKERS + 1, msg, sizeof(msg)) < 0 &&
	      strstr(msg, "usage 1"), "%s/%s: a stray page is caught: %s", d->name, mode, msg);
	atomic_fetch_sub(&tree.leaf[1]->memory.usage, 1);
	/* and a css reference dropped twice */
	x.w[0]->cpu->css_ref[tree.leaf[0]->css.id]--;
	CHECK(pcb_check_charges(d, &tree, x.w, NR_WORKERS + 1, msg, sizeof(msg)) < 0 &&
	      strstr(msg, "css references"), "%s/%s: a lost reference is caught: %s", d->name,
	      mode, msg);

	for (int i = 0; i <= NR_WORKERS; i++) {
		free(x.w[i]->cpu);
		free(x.w[i]);
	}
	pthread_barrier_destroy(&x.bar);
	memcg_tree_destroy(&tree);
}

int main(void)
{
	for (int i = 0; pcb_designs[i]; i++) {
		run_design(pcb_designs[i], PCB_TIMING_CALL);
		run_design(pcb_designs[i], PCB_TIMING_BATCH);
	}
	return check_summary();
}
