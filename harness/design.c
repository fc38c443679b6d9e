/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "design.h"
#include "static_key.h"

#define VARIANTS(d)							\
	extern const struct pcb_variant pcb_variant_##d##_s1_i0, pcb_variant_##d##_s1_i1, \
		pcb_variant_##d##_s7_i0, pcb_variant_##d##_s7_i1
#define VARIANT_TABLE(d)						\
	{ { &pcb_variant_##d##_s1_i0, &pcb_variant_##d##_s1_i1 },	\
	  { &pcb_variant_##d##_s7_i0, &pcb_variant_##d##_s7_i1 } }

VARIANTS(local_lock);
VARIANTS(isolated_skip);
VARIANTS(spinlock);
VARIANTS(local_trylock);
VARIANTS(nocache);
VARIANTS(qsbr);

static const struct pcb_design local_lock = {
	.name = "local_lock",
	.promise = "stocks empty once the queued work ran on each CPU (not when drain_all_stock() returns)",
	.summary = "local_lock_irqsave() on the owner; drains are work scheduled on each CPU",
	.follows = "mm/memcontrol.c v6.2, upstream before seed 000's series",
	.drain = PCB_DRAIN_WORK,
	.variant = VARIANT_TABLE(local_lock),
};

static const struct pcb_design isolated_skip = {
	.name = "isolated_skip",
	.promise = "stocks empty once the queued work ran on each CPU (not when drain_all_stock() returns), except isolated CPUs', which keep their charges",
	.summary = "local_lock, but no drain work on isolated CPUs: their charges stay",
	.follows = "seed 000: Michal Hocko, \"memcg: do not drain charge pcp caches on remote isolated cpus\"",
	.drain = PCB_DRAIN_WORK,
	.skips_isolated = 1,
	.variant = VARIANT_TABLE(isolated_skip),
};

static const struct pcb_design spinlock = {
	.name = "spinlock",
	.promise = "every stock of the subtree empty when drain_all_stock() returns",
	.summary = "per-CPU spin_lock_irqsave(); any CPU drains any stock directly",
	.follows = "seed 000: \"Introduce memcg_stock_pcp remote draining\" v2, patches 1-5",
	.drain = PCB_DRAIN_REMOTE,
	.variant = VARIANT_TABLE(spinlock),
};

static const struct pcb_design local_trylock = {
	.name = "local_trylock",
	.promise = "stocks empty once the queued work ran on each CPU (not when drain_all_stock() returns), except isolated CPUs', which keep their charges",
	.summary = "local_trylock_t; a failed trylock uses the page_counter; drains skip isolated CPUs",
	.follows = "today's upstream mm/memcontrol.c (local_trylock_t, seed 002's 7 slots with slots = 7)",
	.drain = PCB_DRAIN_WORK,
	.skips_isolated = 1,
	.variant = VARIANT_TABLE(local_trylock),
};

static const struct pcb_design nocache = {
	.name = "nocache",
	.promise = "opted-out CPUs hold nothing; the others' stocks empty once the queued work ran on each CPU (not when drain_all_stock() returns)",
	.summary = "opted-out CPUs charge the page_counter every time; others use local_lock",
	.follows = "seed 000 review: isolated CPUs \"opt out from the pcp caching\"",
	.drain = PCB_DRAIN_WORK,
	.nocache = 1,
	.variant = VARIANT_TABLE(nocache),
};

static const struct pcb_design qsbr = {
	.name = "qsbr",
	.promise = "every stock of the subtree empty when drain_all_stock() returns",
	.summary = "RCU-protected stock pointer: drains swap in an empty stock, wait a grace period",
	.follows = "seed 004: the RCU-based remote drain RFC, with liburcu QSBR",
	.drain = PCB_DRAIN_QSBR,
	.variant = VARIANT_TABLE(qsbr),
};

const struct pcb_design *const pcb_designs[] = {
	&local_lock, &isolated_skip, &spinlock, &local_trylock, &nocache, &qsbr, NULL,
};

const char *const pcb_fn_name[PCB_FN_NR] = {
	[PCB_FN_CONSUME_STOCK] = "consume_stock",
	[PCB_FN_REFILL_STOCK] = "refill_stock",
	[PCB_FN_MOD_OBJCG_STATE] = "mod_objcg_state",
	[PCB_FN_CONSUME_OBJ_STOCK] = "consume_obj_stock",
	[PCB_FN_REFILL_OBJ_STOCK] = "refill_obj_stock",
	[PCB_FN_KMALLOC] = "kmalloc",
	[PCB_FN_MEMCG_HOOKS] = "memcg_hooks",
};

const struct pcb_workload_info pcb_workloads[PCB_WL_NR] = {
	[PCB_WL_CHARGE] = { "charge",
		"page charges and uncharges as try_charge_memcg()/uncharge_batch() make them; "
		"a random walk of each worker's held pages" },
	[PCB_WL_KMALLOC] = { "kmalloc",
		"kmalloc()/kfree() of accounted objects through the slab hooks "
		"(obj_cgroup_charge(), mod_objcg_state()); batch timing: seed 000's burst benchmark" },
	[PCB_WL_MIXED] = { "mixed",
		"page and object operations mixed (workload.obj_share): all five functions "
		"from their callers, as seed 000's 2.2 stress test" },
	[PCB_WL_MULTI_MEMCG] = { "multi_memcg",
		"page charges to workload.memcgs memcgs in turn, as seed 002's netperf "
		"clients in different cgroups" },
};

/* seed 003: memcg_in_use_key, off while only the root memcg exists */
struct static_key_false memcg_in_use_key = STATIC_KEY_FALSE_INIT;
int mem_cgroup_subsys_disabled;

const struct pcb_design *pcb_design_find(const char *name)
{
	for (int i = 0; pcb_designs[i]; i++)
		if (!strcmp(pcb_designs[i]->name, name))
			return pcb_designs[i];
	return NULL;
}
