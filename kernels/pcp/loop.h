/* SPDX-License-Identifier: MIT */
/*
 * The page allocator model's worker loops, instantiated once per design
 * and build variant by the design template (variant.h).
 *
 * pcp_alloc_free: workload.burst order-0 allocations, then as many frees
 * (the series' own micro-benchmark shape). call timing: every
 * rmqueue_pcplist() and free_unref_page() between its own two reads; batch
 * timing: a burst of each between two reads, the burst and half of it in
 * turn (pcb_batch_calls()).
 *
 * page_fault: pft's shape; faults until workload.map_pages are mapped, then
 * the munmap. call timing: every fault, and the munmap per page; batch
 * timing: PCP_FAULT_BATCH faults and half as many in turn between two
 * reads.
 */
#ifndef PCB_PCP_LOOP_H
#define PCB_PCP_LOOP_H

#include "page_alloc.h"
#include "pft.h"

/* faults a batch-timed region holds */
#define PCP_FAULT_BATCH 64

/* after each operation: a quiescent state or polled work, and a look at the clock */
static __always_inline void pcp_between_ops(struct pcp_worker *w, struct pcb_cpu *this)
{
	pcb_drain_between_ops(this);
	pcb_gap_watch(&w->w.gaps, &this->win, pcb_tsc_now());
}

static inline void pcp_loop_alloc_free(struct pcp_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	struct pcb_dbg *dbg = this->h.dbg;
	const int batch = w->w.timing == PCB_TIMING_BATCH;

	do {
		for (int c = 0; c < PCB_CHUNK; c += 2 * w->burst) {
			int k = batch ? (int)pcb_batch_calls(dbg, PCP_FN_RMQUEUE_PCPLIST,
							     (unsigned int)w->burst) : w->burst;
			uint64_t t0 = pcb_tsc_start(), t1;

			for (int i = 0; i < k; i++) {
				struct page *page;

				if (batch)
					page = rmqueue(this, w->zone, MIGRATE_MOVABLE);
				else
					page = PCB_TIMED(dbg, PCP_FN_RMQUEUE_PCPLIST,
							 rmqueue(this, w->zone, MIGRATE_MOVABLE));
				if (page)
					w->held[w->nr_held++] = page;
				else
					w->w.failed++;
			}
			t1 = pcb_tsc_end();
			if (batch)
				pcb_dbg_record(dbg, PCP_FN_RMQUEUE_PCPLIST, t1 - t0, (uint64_t)k);
			pcp_between_ops(w, this);
			if (batch && k < w->burst)
				pcb_batch_differenced(dbg, PCP_FN_FREE_UNREF_PAGE);

			t0 = pcb_tsc_start();
			for (int i = 0; i < w->nr_held; i++) {
				if (batch)
					free_unref_page(this, w->zone, w->held[i]);
				else
					PCB_TIMED_VOID(dbg, PCP_FN_FREE_UNREF_PAGE,
						       free_unref_page(this, w->zone, w->held[i]));
			}
			t1 = pcb_tsc_end();
			if (batch && w->nr_held)
				pcb_dbg_record(dbg, PCP_FN_FREE_UNREF_PAGE, t1 - t0,
					       (uint64_t)w->nr_held);
			w->w.ops += 2 * (uint64_t)w->nr_held;
			w->nr_held = 0;
			pcp_between_ops(w, this);
		}
		pcb_dbg_time_empty(dbg);
	} while (!pcb_loop_done(&w->w));
}

/* the munmap of everything mapped, timed per page */
static inline void pcp_unmap_timed(struct pcp_worker *w, struct pcb_cpu *this)
{
	uint64_t n = (uint64_t)w->nr_held, t0, t1;

	if (!n)
		return;
	t0 = pcb_tsc_start();
	pft_unmap(this, w);
	t1 = pcb_tsc_end();
	/* one region for the lot: its length is the figure, per page */
	pcb_stat_record(&this->h.dbg->stat[PCP_FN_UNMAP_PAGE], t1 - t0, this->h.dbg->overhead,
			n, PCB_NO_LIMIT);
	w->w.ops += n;
}

static inline void pcp_loop_page_fault(struct pcp_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	struct pcb_dbg *dbg = this->h.dbg;
	const int batch = w->w.timing == PCB_TIMING_BATCH;

	do {
		for (int c = 0; c < PCB_CHUNK; c += batch ? PCP_FAULT_BATCH : 1) {
			int n = batch ? pcb_min((int)pcb_batch_calls(dbg, PCP_FN_PAGE_FAULT,
								    PCP_FAULT_BATCH),
						w->map_pages - w->nr_held) : 1;
			uint64_t t0 = pcb_tsc_start(), t1;

			for (int i = 0; i < n; i++) {
				struct page *page = batch ? pft_fault(this, w) :
					PCB_TIMED(dbg, PCP_FN_PAGE_FAULT, pft_fault(this, w));

				if (page)
					w->held[w->nr_held++] = page;
				else
					w->w.failed++;
			}
			t1 = pcb_tsc_end();
			if (batch)
				pcb_dbg_record(dbg, PCP_FN_PAGE_FAULT, t1 - t0, (uint64_t)n);
			w->w.ops += (uint64_t)n;
			pcp_between_ops(w, this);
			if (w->nr_held >= w->map_pages) {
				pcp_unmap_timed(w, this);
				pcp_between_ops(w, this);
			}
		}
		pcb_dbg_time_empty(dbg);
	} while (!pcb_loop_done(&w->w));
}

/* what a worker still holds: unmapped (page_fault) or freed, untimed */
static inline void pcp_release_held(struct pcp_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;

	if (w->workload == PCP_WL_PAGE_FAULT) {
		pft_unmap(this, w);
		return;
	}
	for (int i = 0; i < w->nr_held; i++)
		free_unref_page(this, w->zone, w->held[i]);
	w->nr_held = 0;
}

#endif
