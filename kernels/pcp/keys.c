/* SPDX-License-Identifier: MIT */
/*
 * The page allocator model's scenario keys, and the checks across them.
 */
#include <stdio.h>

#include "../locks/irq.h"
#include "../locks/irq_key.h"
#include "pcp_model.h"

static const char *const workloads[] = { "pcp_alloc_free", "page_fault", NULL };
/* enum pcp_lock_placement */
static const char *const placements[] = { "end", "first_line", "design", NULL };
static const char *const accounting[] = { "memcg", "none", "always", "static_key", NULL };
static const char *const yesno[] = { "no", "yes", NULL };

#define CFG struct pcp_config

enum {
	KEY_WORKLOAD, KEY_IRQ_MODEL, KEY_LOCK, KEY_BATCH, KEY_HIGH, KEY_ZONE_PAGES, KEY_BURST,
	KEY_MAP_PAGES, KEY_ACCOUNTING, KEY_DEPTH, KEY_CLEAR, KEY_ZONE_HOLD, KEY_NR,
};
_Static_assert(KEY_NR == PCP_NR_KEYS, "PCP_NR_KEYS counts the keys");

const struct pcb_key pcp_keys[KEY_NR] = {
	[KEY_WORKLOAD] = PCB_KEY_CHOICE_FIELD("run", "workload", "pcp_alloc_free", workloads, CFG,
		workload, "what each worker runs (see workloads)"),
	[KEY_IRQ_MODEL] = PCB_IRQ_MODEL_KEY(CFG, "the lock paths"),
	[KEY_LOCK] = PCB_KEY_CHOICE_FIELD("pcp", "lock_placement", "design", placements, CFG,
		lock_placement, "where struct per_cpu_pages keeps its lock: after the lists, at "
		"256 bytes (the series), first in a cache-line-aligned struct beside count, high "
		"and batch (v6.2), or where the design's kernel has it (first_line for "
		"pcp_trylock, end for the series' designs)"),
	[KEY_BATCH] = PCB_KEY_INT_FIELD("pcp", "batch", "63", 1, 1024, CFG, batch,
		"pcp->batch: pages a refill takes from the zone, a spill gives back at least"),
	[KEY_HIGH] = PCB_KEY_INT_FIELD("pcp", "high", "378", 1, 16384, CFG, high,
		"pcp->high: a CPU's lists spill to the zone past this many pages"),
	[KEY_ZONE_PAGES] = PCB_KEY_INT_FIELD("pcp", "zone_pages", "32768", 1024, 1L << 21, CFG,
		zone_pages, "4 KiB pages in the zone the workers allocate from"),
	[KEY_BURST] = PCB_KEY_INT_FIELD("workload", "burst", "1", 1, 128, CFG, burst,
		"pcp_alloc_free: pages allocated before they are freed"),
	[KEY_MAP_PAGES] = PCB_KEY_INT_FIELD("workload", "map_pages", "512", 1, PCP_MAX_HELD, CFG,
		map_pages, "page_fault: pages faulted in before the munmap"),
	[KEY_ACCOUNTING] = PCB_KEY_CHOICE_FIELD("run", "accounting", "memcg", accounting, CFG,
		accounting, "page_fault: memcg (charge a memcg through the stock), or seed 003's "
		"none, always (the root memcg), static_key"),
	[KEY_DEPTH] = PCB_KEY_INT_FIELD("memcg", "depth", "2", 2, 32, CFG, depth,
		"levels from the root to the charged memcg, root included"),
	[KEY_CLEAR] = PCB_KEY_CHOICE_FIELD("workload", "clear", "yes", yesno, CFG, clear,
		"page_fault: clear each page (4 KiB of stores), as a fault does"),
	[KEY_ZONE_HOLD] = PCB_KEY_CHOICE_FIELD("pcp", "zone_lock_hold", "no", yesno, CFG,
		zone_hold, "time how long rmqueue_bulk() and free_pcppages_bulk() hold the zone "
		"lock (two TSC reads each, inside the timed calls), for the contention table"),
};

/*
 * The checks across keys (struct pcb_model_config's rules()): the
 * harness's, on each design a scenario runs, and the kernel backend's
 * module's, on the plan it is handed (kmod/plan.c), from this one
 * definition.
 */

/* each workload's own keys, refused at a value but the default where the other runs */
static int workload_keys(const struct pcp_config *c, struct pcb_refusal *r)
{
	const int fault = c->workload == PCP_WL_PAGE_FAULT;
	const struct pcb_own_key own[] = {
		{ KEY_BURST, !fault, "the pcp_alloc_free workload" },
		{ KEY_MAP_PAGES, fault, "the page_fault workload" },
		{ KEY_CLEAR, fault, "the page_fault workload" },
		/* only page faults charge */
		{ KEY_ACCOUNTING, fault, "the page_fault workload" },
	};
	char run[64];

	snprintf(run, sizeof(run), "run.workload = %s", workloads[c->workload]);
	return pcb_rule_unread(pcp_keys, own, sizeof(own) / sizeof(own[0]), c, run, r);
}

int pcp_rules(const void *config, int timing, const struct pcb_design *d,
	      struct pcb_refusal *r)
{
	const struct pcp_config *c = config;

	if (c->timing != timing)
		return pcb_refuse(r, PCB_RULE_TIMING, "%d: the settings were checked for "
				  "timing %d", timing, c->timing);
	if (c->high < c->batch)
		return pcb_refuse(r, KEY_HIGH, "%d is less than pcp.batch (%d)", c->high,
				  c->batch);
	return workload_keys(c, r);
}

/* What a configuration says of itself: the harness's, in userspace. */
#ifndef __KERNEL__
/* the harness's run.timing in the settings; the checks are pcp_rules() */
int pcp_finish(void *config, int timing, const struct pcb_scenario *sc, char *err, size_t errlen)
{
	struct pcp_config *c = config;

	c->timing = timing;
	return 0;
}

void pcp_describe(const void *config, char *buf, size_t len)
{
	const struct pcp_config *c = config;

	snprintf(buf, len, "workload %s, pcp batch %d high %d, lock %s, %ld zone pages%s",
		 workloads[c->workload], c->batch, c->high,
		 c->lock_placement == PCP_LOCK_DESIGN ? "where each design's kernel has it" :
		 placements[c->lock_placement], c->zone_pages,
		 pcb_irq_model_note(c->irq_model, c->in_kernel));
}

/* the per_cpu_pages lock design d runs with: the configuration's, or its kernel's */
void pcp_describe_design(const void *config, const struct pcb_design *d, char *buf, size_t len)
{
	const struct pcp_config defaults = { .lock_placement = PCP_LOCK_DESIGN };
	const struct pcp_config *c = config ? config : &defaults;
	int first = pcp_lock_first(c, d);

	if (!pcp_ops(d->variant[0])->lock_size)
		snprintf(buf, len, "no lock in per_cpu_pages");
	else
		snprintf(buf, len, "per_cpu_pages lock %s%s", placements[first],
			 c->lock_placement != PCP_LOCK_DESIGN ? "" :
			 first ? " (v6.2's layout)" : " (the series' layout)");
}

/* the kernel backend masks interrupts itself: irq_model kernel, its variant */
void pcp_kernel(void *config, char *note, size_t len)
{
	struct pcp_config *c = config;

	pcb_irq_model_in_kernel(&c->irq_model, &c->in_kernel, note, len);
}
#endif
