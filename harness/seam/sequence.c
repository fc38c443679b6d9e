/* SPDX-License-Identifier: MIT */
/*
 * A run's sequence (pcb/sequence.h), built into the program and into the
 * kernel backend's module: the worker's warm-up, reset and timed part, the
 * coordinator's drain schedule.
 */
#include <string.h>

#include "pcb/sequence.h"

void pcb_seq_worker_setup(const struct pcb_seq *s, const struct pcb_model_ops *ops,
			  void *shared, struct pcb_worker *w, struct pcb_cpu *cpu,
			  unsigned int id)
{
	w->cpu = cpu;
	w->timing = s->timing;
	w->tsc_khz = s->tsc_khz;
	/* each run its own sequence: seed, CPU and run mixed */
	w->rng = (s->seed + 1) * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)id + 1) * 0xBF58476D1CE4E5B9ULL ^
		 ((uint64_t)s->run + 1) * 0x94D049BB133111EBULL;
	if (!w->rng)
		w->rng = 1;
	cpu->h.dbg = &w->dbg;
	ops->worker_setup(shared, w);
}

void pcb_seq_warm(const struct pcb_seq *s, const struct pcb_variant *v, struct pcb_worker *w)
{
	w->ops_limit = 0;
	w->gaps.checks = 0;
	w->gaps.threshold = UINT64_MAX;
	w->dbg.limit = PCB_NO_LIMIT;
	w->deadline = pcb_tsc_now() + s->warmup_ticks;
	if (s->warmup_ticks)
		v->run(w);
}

void pcb_seq_reset(const struct pcb_seq *s, struct pcb_worker *w, struct pcb_cpu *cpu)
{
	/* the warm-up's checks of the clock: an operation's span, the chunk's */
	uint64_t period = s->warmup_ticks && w->gaps.checks ? s->warmup_ticks / w->gaps.checks : 0;
	uint64_t periods = s->gap_periods * period;

	memset(w->dbg.stat, 0, sizeof(w->dbg.stat));
	memset(w->dbg.ctr, 0, sizeof(w->dbg.ctr));
	memset(w->dbg.empty, 0, sizeof(w->dbg.empty));
	w->dbg.empty_n = w->dbg.empty_over = 0;
	memset(cpu->ev, 0, sizeof(cpu->ev));
	memset(cpu->h.cc, 0, sizeof(cpu->h.cc));
	memset(&w->gaps, 0, sizeof(w->gaps));
	w->gaps.period = period;
	w->gaps.threshold = s->gap_threshold_ticks ? s->gap_threshold_ticks :
			    s->gap_floor_ticks > periods ? s->gap_floor_ticks : periods;
	w->failed = w->misses = w->ops = 0;
	w->ops_limit = s->ops;
	/* a timed region longer than an interruption is set aside, not summed */
	w->dbg.limit = w->gaps.threshold;
}

void pcb_seq_timed(const struct pcb_seq *s, const struct pcb_variant *v, struct pcb_worker *w)
{
	w->tsc_start = pcb_tsc_now();
	w->deadline = w->tsc_start + s->duration_ticks;
	v->run(w);
	w->tsc_end = pcb_tsc_now();
}

/* ln 2 in 32 fractional bits, rounded */
#define PCB_LN2_Q32	2977044472ULL

/* log2(n), n >= 1, in 32 fractional bits: the integer part, then a bit a squaring */
static uint64_t log2_q32(uint64_t n)
{
	int e = 63 - __builtin_clzll(n);
	/* n / 2^e in [1, 2), 62 fractional bits */
	uint64_t y = e <= 62 ? n << (62 - e) : n >> 1, frac = 0;

	for (int bit = 31; bit >= 0; bit--) {
		y = (uint64_t)(((unsigned __int128)y * y) >> 62);
		if (y >= 1ULL << 63) {
			frac |= 1ULL << bit;
			y >>= 1;
		}
	}
	return ((uint64_t)e << 32) | frac;
}

uint64_t pcb_seq_exp_ticks(uint64_t *rng, uint64_t mean)
{
	/* u = n / 2^53, n in [1, 2^53]: -log2(u) = 53 - log2(n) */
	uint64_t n = (pcb_rng_next(rng) >> 11) + 1;
	uint64_t neg_log2 = (53ULL << 32) - log2_q32(n);
	uint64_t neg_ln = (uint64_t)(((unsigned __int128)neg_log2 * PCB_LN2_Q32) >> 32);
	unsigned __int128 ticks = ((unsigned __int128)mean * neg_ln) >> 32;

	return ticks > UINT64_MAX ? UINT64_MAX : (uint64_t)ticks;
}

void pcb_seq_drain_windows(const struct pcb_design *d, struct pcb_cpu *const *workers, int nr,
			   bool open)
{
	if (d->drain.queues_work)
		return;
	for (int i = 0; i < nr; i++) {
		if (open)
			pcb_drain_window_open(workers[i]);
		else
			pcb_drain_window_close(workers[i]);
	}
}

uint64_t pcb_seq_lock_waited(const struct pcb_cpu *cpu)
{
	uint64_t sum = 0;

	for (int i = 0; i < PCB_MAX_CONTENDED_FNS; i++)
		sum += cpu->h.cc[i].wait.sum;
	return sum;
}

uint64_t pcb_seq_coord_run(const struct pcb_seq_coord_ops *ops, void *c,
			   struct pcb_seq_drains *p, uint64_t start, uint64_t deadline)
{
	uint64_t fired = 0, next = start;
	uint64_t mean = p->count ? (deadline - start) / (p->count + 1) : p->period_ticks;

	if (!mean)
		return 0;
	for (;;) {
		uint64_t gap = p->poisson && !p->count ? pcb_seq_exp_ticks(&p->rng, mean) : mean;

		/* the schedule and the clock both end at the deadline, however late a drain ran */
		if (gap >= deadline - next)
			break;
		next += gap;
		if (pcb_tsc_now() >= deadline || (p->count && fired >= p->count) ||
		    atomic_load(&pcb_stop_now))
			break;
		ops->prepare(c);
		ops->wait_until(c, next);
		/* a burst, too, ends with the run: drains after it are no run's */
		for (uint32_t b = 0; b < p->burst && (!b || pcb_tsc_now() < deadline); b++) {
			if (b)
				ops->prepare(c);
			ops->drain(c);
			fired++;
			/* a burst, or drains too close to sleep between, yields between two */
			pcb_cond_resched();
		}
	}
	return fired;
}

void pcb_seq_coord_warm(const struct pcb_seq_coord_ops *ops, void *c,
			const struct pcb_seq_drains *p, uint64_t warmup_ticks, uint64_t min_ticks)
{
	uint64_t start = pcb_tsc_now();

	if (warmup_ticks < min_ticks || (!p->period_ticks && !p->count))
		return;
	ops->prepare(c);
	ops->wait_until(c, start + warmup_ticks / 4);
	if (!atomic_load(&pcb_stop_now))
		ops->drain(c);
}
