/* SPDX-License-Identifier: MIT */
/*
 * The memcg model's scenario keys, and the checks across them.
 */
#include <stdio.h>
#include <string.h>

#include "../clear_page.h"
#include "../locks/irq.h"
#include "../locks/irq_key.h"
#include "memcg_model.h"

static const char *const workloads[] = { "charge", "kmalloc", "mixed", "multi_memcg", "netperf",
					 NULL };
static const char *const accounting[] = { "memcg", "none", "always", "static_key",
					  "static_key_on", NULL };
static const char *const eviction[] = { "random", "round_robin", NULL };
static const char *const nocache[] = { "all", "isolated", NULL };
static const char *const targets[] = { "root", "leaf", NULL };
static const char *const betweens[] = { "none", "syscall", NULL };
/* enum memcg_stock_placement */
static const char *const placements[] = { "design", "packed", "aligned", NULL };

#define CFG struct memcg_config

enum {
	KEY_WORKLOAD, KEY_IRQ_MODEL, KEY_ACCOUNTING, KEY_DEPTH, KEY_SLOTS, KEY_EVICTION,
	KEY_NOCACHE, KEY_NR_PAGES, KEY_HOLD, KEY_UNCHARGE_REFILL, KEY_OBJECT_SIZE,
	KEY_OBJ_SHARE, KEY_MEMCGS, KEY_BURST, KEY_TARGET, KEY_THINK, KEY_QUEUES, KEY_SOFTIRQ,
	KEY_BETWEEN, KEY_CLEAR_PAGES, KEY_PLACEMENT, KEY_OFFSET, KEY_MAX, KEY_NR,
};

const struct pcb_key memcg_keys[KEY_NR] = {
	[KEY_WORKLOAD] = PCB_KEY_CHOICE_FIELD("run", "workload", "charge", workloads, CFG,
		workload, "what each worker runs (see workloads)"),
	[KEY_IRQ_MODEL] = PCB_IRQ_MODEL_KEY(CFG, "the lock paths"),
	[KEY_ACCOUNTING] = PCB_KEY_CHOICE_FIELD("run", "accounting", "memcg", accounting, CFG,
		accounting, "seed 003's kernels: memcg (charge the scenario's memcgs), none, "
		"always, static_key, static_key_on (batch charge workload, root memcg only)"),
	[KEY_DEPTH] = PCB_KEY_INT_FIELD("memcg", "depth", "2", 2, 32, CFG, depth,
		"levels from the root to the charged memcg, root included"),
	[KEY_MAX] = PCB_KEY_INT_FIELD("memcg", "max", "0", 0, 1L << 40, CFG, max,
		"memory.max of the charged memcgs, in pages (0: none): a charge that fails "
		"there drains every worker's stock from the charge path, as try_charge_memcg() "
		"does once reclaim (not modeled) freed too little, retries, then fails (call "
		"timing; not with netperf or drain.stocks)"),
	[KEY_SLOTS] = PCB_KEY_INT_FIELD("stock", "slots", "1", 1, 7, CFG, slots,
		"memcgs a stock caches: 1, or 7 (NR_MEMCG_STOCK of seed 002, its layout); "
		"local_trylock_7_3 and spinlock_7_3 have their kernel's 7 whatever this says"),
	[KEY_EVICTION] = PCB_KEY_CHOICE_FIELD("stock", "eviction", "random", eviction, CFG,
		eviction_round_robin, "the slot a new memcg takes when all are used (seed 002's "
		"stock; the 7.3 designs evict round robin, as 7.3 does)"),
	[KEY_NOCACHE] = PCB_KEY_CHOICE_FIELD("stock", "nocache", "all", nocache, CFG,
		nocache_isolated_only, "nocache design: which CPUs opt out of caching"),
	[KEY_NR_PAGES] = PCB_KEY_INT_FIELD("workload", "nr_pages", "1", 1, 512, CFG, nr_pages,
		"pages per charge and uncharge (batch timing: at most MEMCG_CHARGE_BATCH)"),
	[KEY_HOLD] = PCB_KEY_INT_FIELD("workload", "hold", "512", 1, 1L << 20, CFG, hold,
		"most pages (or objects) a worker holds per memcg before it must free"),
	[KEY_UNCHARGE_REFILL] = PCB_KEY_INT_FIELD("workload", "uncharge_refill", "25", 0, 100,
		CFG, uncharge_refill, "percent of uncharges that go back through refill_stock()"),
	[KEY_OBJECT_SIZE] = PCB_KEY_INT_FIELD("workload", "object_size", "8", 1, 8192, CFG,
		object_size, "kmalloc() size in bytes; the charge adds the obj_cgroup pointer"),
	[KEY_OBJ_SHARE] = PCB_KEY_INT_FIELD("workload", "obj_share", "55", 0, 100, CFG,
		obj_share, "mixed: percent of operations that allocate or free objects"),
	[KEY_MEMCGS] = PCB_KEY_INT_FIELD("workload", "memcgs", "1", 1, 60, CFG, memcgs,
		"multi_memcg: memcgs each worker charges in turn; netperf: clients, one memcg each"),
	[KEY_BURST] = PCB_KEY_INT_FIELD("workload", "burst", "1048576", 1, 1L << 24, CFG, burst,
		"batch kmalloc: allocations timed as one burst"),
	[KEY_TARGET] = PCB_KEY_CHOICE_FIELD("drain", "target", "root", targets, CFG,
		drain_target_leaf, "memcg drained: root (the whole tree) or leaf (the workers' memcg)"),
	[KEY_THINK] = PCB_KEY_INT_FIELD("workload", "think_ns", "0", 0, 10000000, CFG, think_ns,
		"call timing: ns of other work between two operations (the rest of the system "
		"call: a walk over a private 4 KiB buffer), so the stock is not held all the time"),
	[KEY_BETWEEN] = PCB_KEY_CHOICE_FIELD("workload", "between", "none", betweens, CFG, between,
		"call timing: a real system call (getppid()) between two operations, so that each "
		"call begins as the seed's did, on a CPU just through the kernel's entry and exit"),
	[KEY_CLEAR_PAGES] = PCB_KEY_INT_FIELD("workload", "clear_pages", "0", 0, 65536, CFG,
		clear_pages, "call timing, page charges: clear_page() of a page just before "
		"each charge, as do_anonymous_page() charges the page it has just zeroed; "
		"N pages in turn set where those stores land (0: none)"),
	[KEY_QUEUES] = PCB_KEY_INT_FIELD("workload", "queues", "8", 1, 1024, CFG, queues,
		"netperf: the CPUs taking the flows' receive interrupts; each worker is one of them"),
	[KEY_PLACEMENT] = PCB_KEY_CHOICE_FIELD("stock", "placement", "design", placements, CFG,
		stock_placement, "where each CPU's memcg_stock sits: packed among the per-CPU "
		"variables beside it (DEFINE_PER_CPU, v6.2: the next, stats_updates, shares its "
		"last line), aligned to a cache line with its lines to itself (seed 000's patch "
		"1/5, seed 002), or design: as each design's kernel defines it"),
	[KEY_OFFSET] = PCB_KEY_INT_FIELD("stock", "offset", "0", 0, 56, CFG, stock_offset,
		"a packed stock: the byte of its cache line it starts at, as the link put it, "
		"a multiple of its 8-byte alignment (0 in Debian's 6.1.192 cloud kernel; past "
		"40, the 88-byte v6.2 stock spans three lines)"),
	[KEY_SOFTIRQ] = PCB_KEY_INT_FIELD("workload", "softirq_share", "50", 0, 100, CFG,
		softirq_share, "netperf: percent of a CPU's charges made in softirq, for a flow"),
};
_Static_assert(KEY_NR == MEMCG_NR_KEYS, "MEMCG_NR_KEYS counts the keys");

/*
 * The checks across keys (struct pcb_model_config's rules()): the
 * harness's, on each design a scenario runs, and the kernel backend's
 * module's, on the plan it is handed (kmod/plan.c), from this one
 * definition.
 */

/*
 * workload.think_ns and workload.between: work between two operations of
 * call timing's loop; batch timing's loops (pcb_loop_batch_charge(),
 * the accounting loops, the kmalloc burst) have no place for them
 */
static int calls_only(const struct memcg_config *c, struct pcb_refusal *r)
{
	if (c->think_ns)
		return pcb_refuse(r, KEY_THINK, "%d: other work between two operations is call "
				  "timing's (run.timing = call); batch timing's regions would run "
				  "without it", c->think_ns);
	if (c->between)
		return pcb_refuse(r, KEY_BETWEEN, "%s: a system call between two operations is "
				  "call timing's (run.timing = call); batch timing's regions would "
				  "run without it", betweens[c->between]);
	return 0;
}

/* the workloads' own keys, refused at a value but the default where another runs */
static int workload_keys(const struct memcg_config *c, int timing, struct pcb_refusal *r)
{
	const int wl = c->workload;
	const struct pcb_own_key own[] = {
		{ KEY_BURST, wl == MEMCG_WL_KMALLOC && timing != PCB_TIMING_CALL,
		  "batch timing's kmalloc workload" },
		{ KEY_OBJ_SHARE, wl == MEMCG_WL_MIXED, "the mixed workload" },
		{ KEY_MEMCGS, wl == MEMCG_WL_MULTI_MEMCG || wl == MEMCG_WL_NETPERF,
		  "the multi_memcg and netperf workloads" },
		{ KEY_QUEUES, wl == MEMCG_WL_NETPERF, "the netperf workload" },
		{ KEY_SOFTIRQ, wl == MEMCG_WL_NETPERF, "the netperf workload" },
	};
	char run[64];

	snprintf(run, sizeof(run), "run.workload = %s, %s timing", workloads[wl],
		 timing == PCB_TIMING_CALL ? "call" : "batch");
	return pcb_rule_unread(memcg_keys, own, sizeof(own) / sizeof(own[0]), c, run, r);
}

int memcg_rules(const void *config, int timing, const struct pcb_design *d,
		struct pcb_refusal *r)
{
	const struct memcg_config *c = config;
	const struct memcg_design_info *info = d ? d->info : NULL;
	const int wl = c->workload;

	if (c->timing != timing)
		return pcb_refuse(r, PCB_RULE_TIMING, "%d: the settings were checked for "
				  "timing %d", timing, c->timing);
	if (timing == PCB_TIMING_BATCH && c->nr_pages > (int)MEMCG_CHARGE_BATCH)
		return pcb_refuse(r, KEY_NR_PAGES, "%d: batch timing drives the stock between "
				  "empty and MEMCG_CHARGE_BATCH (%u) pages, so nr_pages must be "
				  "at most %u (or use run.timing = call)", c->nr_pages,
				  MEMCG_CHARGE_BATCH, MEMCG_CHARGE_BATCH);
	if (c->stock_offset % (int)sizeof(void *))
		return pcb_refuse(r, KEY_OFFSET, "%d: the linker places memcg_stock at its "
				  "alignment, its pointers' %zu bytes", c->stock_offset,
				  sizeof(void *));
	if (c->stock_offset && c->stock_placement == MEMCG_STOCK_PLACE_ALIGNED)
		return pcb_refuse(r, KEY_OFFSET, "%d: an aligned stock starts its cache line; the "
				  "offset is a packed stock's (stock.placement = packed, or design "
				  "for the designs whose kernel packs it)", c->stock_offset);
	if (info && info->split && c->stock_placement == MEMCG_STOCK_PLACE_PACKED)
		return pcb_refuse(r, KEY_PLACEMENT, "packed: %s's kernel defines memcg_stock and "
				  "obj_stock with DEFINE_PER_CPU_ALIGNED, which no kernel packs",
				  d->name);
	if (c->slots != 1 && c->slots != 7)
		return pcb_refuse(r, KEY_SLOTS, "%d: 1 (one cached memcg) or 7 (seed 002's "
				  "NR_MEMCG_STOCK, searched whole)", c->slots);
	if (!strcmp(d->drain.name, "rseq_fence") && c->slots != 1)
		return pcb_refuse(r, KEY_SLOTS, "%d: %s keeps one slot (a search of seed 002's "
				  "slots is no single commit)", c->slots, d->name);
	if (wl == MEMCG_WL_NETPERF && timing != PCB_TIMING_CALL)
		return pcb_refuse(r, PCB_RULE_TIMING, "netperf times whole charges: use "
				  "run.timing = call");
	if (c->hold < c->nr_pages)
		return pcb_refuse(r, KEY_HOLD, "%ld is less than nr_pages (%d)", c->hold,
				  c->nr_pages);
	if (c->accounting != MEMCG_ACCT_MEMCG &&
	    (wl != MEMCG_WL_CHARGE || timing != PCB_TIMING_BATCH))
		return pcb_refuse(r, KEY_ACCOUNTING, "%s needs run.workload = charge and "
				  "run.timing = batch", accounting[c->accounting]);
	if (c->depth - 1 + c->memcgs > PCB_MAX_MEMCG_IDS)
		return pcb_refuse(r, KEY_MEMCGS, "%d memcgs below a depth of %d need more than "
				  "%d memcg ids", c->memcgs, c->depth, PCB_MAX_MEMCG_IDS);
	if (c->clear_pages && (timing != PCB_TIMING_CALL ||
			       (wl != MEMCG_WL_CHARGE && wl != MEMCG_WL_MIXED &&
				wl != MEMCG_WL_MULTI_MEMCG)))
		return pcb_refuse(r, KEY_CLEAR_PAGES, "%d: pages are cleared before the page "
				  "charges of call timing's charge, mixed and multi_memcg "
				  "workloads (run.timing = call)", c->clear_pages);
	if (c->max && wl == MEMCG_WL_NETPERF)
		return pcb_refuse(r, KEY_MAX, "%ld: netperf's flows are charged from softirq "
				  "(GFP_ATOMIC, no drain at the limit), which its model runs in "
				  "task context", c->max);
	if (c->max && timing != PCB_TIMING_CALL)
		return pcb_refuse(r, KEY_MAX, "%ld: a charge meets memory.max in "
				  "try_charge_memcg(), which call timing's loops call; batch "
				  "timing's charge the page counter directly (run.timing = call)",
				  c->max);
	if (timing != PCB_TIMING_CALL && calls_only(c, r) < 0)
		return -1;
	if (workload_keys(c, timing, r) < 0)
		return -1;
	if (c->clear_pages && c->nr_pages > 1)
		return pcb_refuse(r, KEY_CLEAR_PAGES, "%d: a page is cleared before a charge of "
				  "one page; nr_pages is %d (a large folio is charged before it "
				  "is cleared)", c->clear_pages, c->nr_pages);
	if (timing == PCB_TIMING_BATCH && wl != MEMCG_WL_CHARGE && wl != MEMCG_WL_KMALLOC) {
		/* the key that was written, where it was written */
		pcb_refuse(r, KEY_WORKLOAD, "batch timing is defined for the charge and kmalloc "
			   "workloads; use call timing for %s", workloads[wl]);
		r->timing_first = true;
		return -1;
	}
	return 0;
}

/* What a configuration says of itself: the harness's, in userspace. */
#ifndef __KERNEL__
/* the harness's run.timing in the settings; the checks are memcg_rules() */
int memcg_finish(void *config, int timing, const struct pcb_scenario *sc,
		 char *err, size_t errlen)
{
	struct memcg_config *c = config;
	int stocks = pcb_key_find("drain", "stocks");

	c->timing = timing;
	/*
	 * the charge path's drain walks the workers' CPUs: idle ones charged
	 * would hold pages against memory.max that no such drain frees, and
	 * their refills would fail at it
	 */
	if (c->max && stocks >= 0 && pcb_scenario_key_given(sc, stocks)) {
		pcb_scenario_key_error(sc, stocks, err, errlen, "with memcg.max the charge path's "
				       "drain walks the workers' CPUs alone, so no idle CPU may "
				       "hold charges: leave drain.stocks to the workers'");
		return -1;
	}
	return 0;
}

void memcg_describe(const void *config, char *buf, size_t len)
{
	const struct memcg_config *c = config;
	char clear[96] = "", max[96] = "";

	if (c->clear_pages)
		snprintf(clear, sizeof(clear), "; %s() before each page charge, %d page(s) in turn",
			 pcb_clear_page_name(), c->clear_pages);
	if (c->max)
		snprintf(max, sizeof(max), "; memory.max %ld pages, drained from the charge path "
			 "at it", c->max);
	snprintf(buf, len, "workload %s, %d page(s) a charge, memcg depth %d, %d slot(s)%s%s%s",
		 workloads[c->workload], c->nr_pages, c->depth, c->slots, clear, max,
		 pcb_irq_model_note(c->irq_model, c->in_kernel));
}

/* where design d's stock sits: the configuration's placement, or its kernel's */
void memcg_describe_design(const void *config, const struct pcb_design *d, char *buf,
			   size_t len)
{
	const struct memcg_config defaults = { .stock_placement = MEMCG_STOCK_PLACE_DESIGN };
	const struct memcg_config *c = config ? config : &defaults;
	const struct pcb_stock_place p = memcg_place(c, d);

	if (p.packed)
		snprintf(buf, len, "stock packed at byte %u of its line, stats_updates after it%s",
			 p.offset, c->stock_placement == MEMCG_STOCK_PLACE_DESIGN ?
			 ", as its kernel defines it (DEFINE_PER_CPU)" : "");
	else
		snprintf(buf, len, "stock aligned to a cache line%s",
			 c->stock_placement == MEMCG_STOCK_PLACE_DESIGN ?
			 ", as its kernel defines it" : "");
}

/* the kernel backend masks interrupts itself: irq_model kernel, its variant */
void memcg_kernel(void *config, char *note, size_t len)
{
	struct memcg_config *c = config;

	pcb_irq_model_in_kernel(&c->irq_model, &c->in_kernel, note, len);
	if (c->between) {
		pcb_note_append(note, len, "workload.between = syscall: the kernel backend's calls "
				"are made in the kernel, with no system call between them");
		c->between = 0;
	}
}
#endif
