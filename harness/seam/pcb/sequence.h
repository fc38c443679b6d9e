/* SPDX-License-Identifier: MIT */
/*
 * A run's sequence, written once (sequence.c) and built into both
 * backends, as ops.c and rules.c are: the program's threads
 * (harness/run/worker.c, coordinator.c) and the module's kthreads
 * (kmod/kthreads.c) call it between their own barriers. What it leaves
 * to a backend is what differs between a process and the kernel: the
 * threads and the phases they pass together, sleeping, perf events, the
 * empty region's measurement and where the CPUs' areas live.
 *
 * A worker's run: pcb_seq_worker_setup() once, then each run
 * pcb_seq_warm(), pcb_seq_reset(), the backend's empty region and its
 * barrier, then pcb_seq_timed() between its counters' start and stop.
 *
 * The coordinator's: pcb_seq_coord_warm() during the workers' warm-up,
 * then pcb_seq_coord_run() over the timed part, calling the backend's
 * struct pcb_seq_coord_ops once per arrival and drain (never inside a
 * timed region).
 */
#ifndef PCB_SEAM_SEQUENCE_H
#define PCB_SEAM_SEQUENCE_H

#include "pcb/base.h"
#include "pcb/model.h"
#include "pcb/worker.h"

/* what a run's workers share, in the backend's clock's ticks */
struct pcb_seq {
	uint64_t seed;			/* scenario.seed */
	uint32_t run;			/* which run of the design */
	enum pcb_timing timing;
	uint64_t tsc_khz;
	uint64_t warmup_ticks, duration_ticks;
	/* an interruption: past threshold, or past periods spans, at least floor */
	uint64_t gap_threshold_ticks;	/* 0: from the warm-up's span */
	uint64_t gap_floor_ticks;
	uint32_t gap_periods;
	uint64_t ops;			/* run.ops: 0, until the deadline */
};

/* the generic part of worker w on CPU id, then the model's worker_setup() */
void pcb_seq_worker_setup(const struct pcb_seq *s, const struct pcb_model_ops *ops,
			  void *shared, struct pcb_worker *w, struct pcb_cpu *cpu,
			  unsigned int id);
/* the warm-up: the design's loop for warmup_ticks, measuring an operation's span */
void pcb_seq_warm(const struct pcb_seq *s, const struct pcb_variant *v, struct pcb_worker *w);
/* before the timed part: fresh figures, the interruption threshold the warm-up gave */
void pcb_seq_reset(const struct pcb_seq *s, struct pcb_worker *w, struct pcb_cpu *cpu);
/* the timed part: the design's loop for duration_ticks (or run.ops operations) */
void pcb_seq_timed(const struct pcb_seq *s, const struct pcb_variant *v, struct pcb_worker *w);

/* when the coordinator drains */
struct pcb_seq_drains {
	uint64_t period_ticks;		/* between two arrivals; 0 with count, or none */
	uint64_t count;			/* > 0: exactly this many a run, evenly spread */
	uint32_t burst;			/* drains an arrival */
	bool poisson;			/* arrivals a Poisson process of mean period_ticks */
	uint64_t rng;			/* its sequence (poisson) */
};

/* the coordinator's sequence of run run of scenario.seed seed (poisson) */
static inline uint64_t pcb_seq_drain_rng(uint64_t seed, uint32_t run)
{
	return ((seed + 1) * 0x9E3779B97F4A7C15ULL + run) | 1;
}

/* what the backend's coordinator c does, once an arrival or a drain */
struct pcb_seq_coord_ops {
	/* the caches a drain meets made as their owners leave them */
	void (*prepare)(void *c);
	/* back at the clock's when, sooner where the run is stopped */
	void (*wait_until)(void *c, uint64_t when);
	/* one drain, timed with what it leaves behind */
	void (*drain)(void *c);
};

/*
 * The workers' drain windows, for their interruption classifier, opened
 * and closed around a drain outside its timed call; none where the drain
 * queues work, whose item opens its own
 */
void pcb_seq_drain_windows(const struct pcb_design *d, struct pcb_cpu *const *workers, int nr,
			   bool open);
/* ticks cpu has waited on contended locks over the run (a drainer's holder preempted) */
uint64_t pcb_seq_lock_waited(const struct pcb_cpu *cpu);

/* the drains over [start, deadline): how many fired */
uint64_t pcb_seq_coord_run(const struct pcb_seq_coord_ops *ops, void *c,
			   struct pcb_seq_drains *p, uint64_t start, uint64_t deadline);
/*
 * One drain a quarter into the workers' warm-up, untimed (the reset after
 * it drops its figures), where the warm-up is at least min_ticks and the
 * run has drains: a run's first drain otherwise meets its code and the
 * lines it walks cold, costs several times the others, and in a short run
 * sets the mean. The rest of the warm-up is for the work it queued, which
 * must not spill into the timed run.
 */
void pcb_seq_coord_warm(const struct pcb_seq_coord_ops *ops, void *c,
			const struct pcb_seq_drains *p, uint64_t warmup_ticks, uint64_t min_ticks);

/*
 * An exponential variate of mean ticks, from one draw of rng: -ln(u) mean
 * for u uniform in (0, 1], in integers (the kernel has no floating
 * point), within 2^-30 of ln's value
 */
uint64_t pcb_seq_exp_ticks(uint64_t *rng, uint64_t mean);

#endif
