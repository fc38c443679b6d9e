/* SPDX-License-Identifier: MIT */

/*
 * The sheaves model's torture (tests/unit/torture.h): every design in every
 * build variant (the freelist hardened or not, by the three irq_models),
 * with each work delivery, in both workloads. Workers pinned two to a CPU
 * allocate and free bursts longer than a sheaf holds (the barn, the
 * slabs, new slabs and discarded ones), or hand them to their partner on
 * the other CPU (full sheaves one way through the barn, empty ones the
 * other), while another thread fires kmem_cache_shrink() as fast as it
 * can. At each quiescent point every object of the cache's slabs is in
 * exactly one place and every sheaf too; a shrink then empties every
 * CPU's sheaves; at the end nothing is left on them. The last worker's
 * CPU is isolated, which qpw flushes from the shrinking CPU under its
 * lock. The check is shown to catch an object in two places, a lost
 * object, a slab's inuse, a barn's and a node's counts that lie, and a
 * lost sheaf; the cache's sizes are calculate_order()'s and
 * calculate_sheaf_capacity()'s; each build's per-CPU struct has the
 * layout its kernel has.
 */
#include <string.h>

#include "testing.h"
#include "torture.h"
#include "../../kernels/sheaves/sheaves_model.h"

#define OPS 3000
/* past the 60 objects of a sheaf: the spare, the barn and the slabs each round */
#define BURST 100

static struct sheaves_config config(int workload, int hardened, int irq)
{
	return (struct sheaves_config){ .workload = workload, .hardened = hardened,
					.irq_model = irq, .object_size = 64, .pool_mib = 4,
					.burst = BURST };
}

/* the smallest object a CPU's main sheaf holds, or NULL: with the sheaves' layout */
static struct slab_sheaf *main_sheaf(struct torture *t, int cpu)
{
	const struct sheaves_ops *ops = sheaves_ops(t->v);

	return sheaves_field(t->cpu[cpu]->stock, ops->main_offset);
}

static void check_fails(struct torture *t, const char *what, const char *expect)
{
	char msg[256];

	CHECK(torture_check(t, msg, sizeof(msg)) < 0 && strstr(msg, expect), "%s: %s: %s", t->name,
	      what, msg);
}

static void check_holds(struct torture *t, const char *what)
{
	char msg[256];

	CHECK(torture_check(t, msg, sizeof(msg)) == 0, "%s: %s: %s", t->name, what, msg);
}

/* an object of worker 0's CPU in two places, then one lost: its sheaf or its CPU freelist */
static void objects_break(struct torture *t)
{
	struct sheaves_worker *w = sheaves_worker(t->w[0]);
	const struct sheaves_ops *ops = sheaves_ops(t->v);

	if (ops->cpu_slab) {
		void **freelist = (void **)((char *)t->cpu[0]->stock + ops->freelist_offset);
		void *x = *freelist;

		CHECK(x != NULL, "%s: CPU 0 has a freelist", t->name);
		if (!x)
			return;
		w->held[w->nr_held++] = x;
		check_fails(t, "an object on a CPU's freelist and held", "two places");
		w->nr_held--;
		*freelist = get_freepointer(w->s, x);
		check_fails(t, "an object off a CPU's freelist", "lost");
		*freelist = x;
	} else {
		struct slab_sheaf *main = main_sheaf(t, 0);

		CHECK(main && main->size > 0, "%s: CPU 0's main sheaf holds objects", t->name);
		if (!main || !main->size)
			return;
		w->held[w->nr_held++] = main->objects[main->size - 1];
		check_fails(t, "an object in a sheaf and held", "two places");
		w->nr_held--;
		main->size--;
		check_fails(t, "an object off a sheaf", "lost");
		main->size++;
	}
	check_holds(t, "put back");
}

/* a slab's inuse, a barn's and a node's counts off by one; a sheaf off the pool */
static void counts_break(struct torture *t)
{
	struct sheaves_shared *sh = t->shared;
	struct kmem_cache *s = &sh->cache;
	struct node_barn *barn = s->node[0]->barn;
	struct slab *slab = &s->pages->memmap[0];
	struct list_head *lh = s->sheaves->free.next;

	CHECK(slab->slab_cache == s, "%s: the first block is a slab", t->name);
	slab->counters++;
	check_fails(t, "inuse one too many", "inuse");
	slab->counters--;
	barn->nr_full++;
	check_fails(t, "nr_full lies", "nr_full");
	barn->nr_full--;
	s->node[0]->nr_partial++;
	check_fails(t, "nr_partial lies", "nr_partial");
	s->node[0]->nr_partial--;
	list_del(lh);
	s->sheaves->nr_free--;
	check_fails(t, "a sheaf gone", "sheaf(s) lost");
	list_add(lh, &s->sheaves->free);
	s->sheaves->nr_free++;
	check_holds(t, "put back");
}

/* the check at work on one design: worker 0's operations, then each breakage */
static void check_catches(const struct pcb_design *d)
{
	/* not hardened: the test follows a CPU's freelist with slab.h's get_freepointer() */
	struct sheaves_config cfg = config(SHEAVES_WL_ALLOC_FREE, 0, 0);
	struct torture t = { .m = &sheaves_model, .d = d,
			     .v = d->variant[sheaves_model.ops.variant_index(&cfg, d)] };

	snprintf(t.name, sizeof(t.name), "sheaves %s: the check", d->name);
	if (torture_set_up(&t, &cfg) < 0)
		return;
	if (t.v->thread_start)
		t.v->thread_start();
	t.w[0]->ops_limit = 2000;
	t.v->run(t.w[0]);
	if (t.v->thread_stop)
		t.v->thread_stop();
	check_holds(&t, "after the run");
	objects_break(&t);
	counts_break(&t);
	torture_tear_down(&t);
}

/* calculate_sheaf_capacity(), calculate_order() */
static void sizes(void)
{
	CHECK(sheaves_capacity_of(64, 0) == 60, "64 bytes: %u", sheaves_capacity_of(64, 0));
	CHECK(sheaves_capacity_of(256, 0) == 28, "256 bytes: %u", sheaves_capacity_of(256, 0));
	CHECK(sheaves_capacity_of(1024, 0) == 12, "1024 bytes: %u", sheaves_capacity_of(1024, 0));
	CHECK(sheaves_capacity_of(4096, 0) == 4, "4096 bytes: %u", sheaves_capacity_of(4096, 0));
	CHECK(sheaves_capacity_of(64, 100) == 100, "asked for 100: %u",
	      sheaves_capacity_of(64, 100));
	CHECK(sheaves_order_of(64, 2) == 0, "64 bytes: order %u", sheaves_order_of(64, 2));
	CHECK(sheaves_order_of(1024, 2) == 2, "1024 bytes: order %u", sheaves_order_of(1024, 2));
	CHECK(sheaves_order_of(4096, 2) == 3, "4096 bytes: order %u", sheaves_order_of(4096, 2));
	CHECK(sheaves_order_of(700, 128) == 3, "700 bytes, 128 CPUs: order %u",
	      sheaves_order_of(700, 128));
}

/* each design's per-CPU struct: the lock in the first word, main at 8, 32 bytes */
static void layouts(void)
{
	for (int i = 0; sheaves_model.designs[i]; i++) {
		const struct pcb_design *d = sheaves_model.designs[i];
		const struct sheaves_ops *ops = sheaves_ops(d->variant[0]);

		CHECK(ops->stock_size == 32, "%s: %zu bytes", d->name, ops->stock_size);
		if (ops->cpu_slab)
			CHECK(ops->freelist_offset == 0 && ops->tid_offset == 8 &&
			      ops->slab_offset == 16, "%s: freelist, tid, slab at %zu, %zu, %zu",
			      d->name, ops->freelist_offset, ops->tid_offset, ops->slab_offset);
		else
			CHECK(ops->lock_offset == 0 && ops->lock_size <= 8 && ops->main_offset == 8 &&
			      ops->spare_offset == 16 && ops->rcu_free_offset == 24,
			      "%s: lock %zu (%zu bytes), main %zu", d->name, ops->lock_offset,
			      ops->lock_size, ops->main_offset);
	}
}

static void torture_workload(int workload)
{
	struct sheaves_config cfg[PCB_MAX_VARIANTS];
	int n = 0;

	/* one configuration a variant: variants.def's two axes */
	for (int hardened = 0; hardened < 2; hardened++)
		for (int irq = 0; irq < 3; irq++)
			cfg[n++] = config(workload, hardened, irq);
	pcb_torture(&sheaves_model, cfg, n, OPS);
}

int main(void)
{
	sizes();
	layouts();
	for (int i = 0; sheaves_model.designs[i]; i++)
		check_catches(sheaves_model.designs[i]);
	torture_workload(SHEAVES_WL_ALLOC_FREE);
	torture_workload(SHEAVES_WL_HANDOFF);
	return check_summary();
}
