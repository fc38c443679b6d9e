/* SPDX-License-Identifier: MIT */
/*
 * The sheaves model's worker loops, instantiated once per design and build
 * variant by the design template (variant.h).
 *
 * alloc_free: workload.burst kmem_cache_alloc() calls, then as many
 * kmem_cache_free() of the same objects. A burst within the sheaf's
 * capacity stays in the main sheaf; a longer one exchanges sheaves with
 * the barn, and refills from and flushes to the slabs. call timing: every
 * call between its own two reads; batch timing: a burst of each between
 * two reads, the burst and half of it in turn (pcb_batch_calls()).
 *
 * handoff: workers in pairs on two CPUs (the first and second set up, the
 * third and fourth, ...; an odd one out runs alloc_free): one allocates a
 * burst and hands it over a ring, the other frees what arrives, at most a
 * burst at a time. The allocating CPU's sheaves run empty and the freeing
 * CPU's fill: full sheaves go through the barn one way, empty ones the
 * other (barn_replace_empty_sheaf(), barn_replace_full_sheaf()), as for
 * objects allocated on one CPU and freed on another. Neither waits: a full
 * or empty ring is a stall, counted, and the loop goes on. batch timing: a
 * burst between two reads, not halved (a freer's region holds what
 * arrived).
 *
 * Each allocated object's first word is written by its user outside the
 * timed calls, and read by the freer of a handoff.
 */
#ifndef PCB_SHEAVES_LOOP_H
#define PCB_SHEAVES_LOOP_H

/* after each operation: a quiescent state or polled work, and a look at the clock */
static __always_inline void sheaves_between_ops(struct sheaves_worker *w, struct pcb_cpu *this)
{
	pcb_drain_between_ops(this);
	pcb_gap_watch(&w->w.gaps, &this->win, pcb_tsc_now());
}

/* k objects allocated into held[], each call timed (call) or the k as one (batch) */
static __always_inline void sheaves_alloc_burst(struct sheaves_worker *w, struct pcb_cpu *this,
						int k, int batch)
{
	struct pcb_dbg *dbg = this->h.dbg;
	uint64_t t0 = pcb_tsc_start(), t1;

	for (int i = 0; i < k; i++) {
		void *object = batch ? kmem_cache_alloc(this, w->s) :
			PCB_TIMED(dbg, SHEAVES_FN_ALLOC, kmem_cache_alloc(this, w->s));

		if (object)
			w->held[w->nr_held++] = object;
		else
			w->w.failed++;
	}
	t1 = pcb_tsc_end();
	if (batch)
		pcb_dbg_record(dbg, SHEAVES_FN_ALLOC, t1 - t0, (uint64_t)k);
	/* the objects' users write them */
	for (int i = 0; i < w->nr_held; i++)
		WRITE_ONCE(*(uint64_t *)w->held[i], w->w.ops + (uint64_t)i);
}

/* held[] freed, each call timed (call) or all as one region (batch) */
static __always_inline void sheaves_free_held(struct sheaves_worker *w, struct pcb_cpu *this,
					      int batch)
{
	struct pcb_dbg *dbg = this->h.dbg;
	uint64_t t0 = pcb_tsc_start(), t1;

	for (int i = 0; i < w->nr_held; i++) {
		if (batch)
			kmem_cache_free(this, w->s, w->held[i]);
		else
			PCB_TIMED_VOID(dbg, SHEAVES_FN_FREE, kmem_cache_free(this, w->s, w->held[i]));
	}
	t1 = pcb_tsc_end();
	if (batch && w->nr_held)
		pcb_dbg_record(dbg, SHEAVES_FN_FREE, t1 - t0, (uint64_t)w->nr_held);
	w->nr_held = 0;
}

static inline void sheaves_loop_alloc_free(struct sheaves_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	struct pcb_dbg *dbg = this->h.dbg;
	const int batch = w->w.timing == PCB_TIMING_BATCH;

	do {
		for (int c = 0; c < PCB_CHUNK; c += 2 * w->burst) {
			int k = batch ? (int)pcb_batch_calls(dbg, SHEAVES_FN_ALLOC,
							     (unsigned int)w->burst) : w->burst;

			sheaves_alloc_burst(w, this, k, batch);
			sheaves_between_ops(w, this);
			if (batch && k < w->burst)
				pcb_batch_differenced(dbg, SHEAVES_FN_FREE);
			w->w.ops += 2 * (uint64_t)w->nr_held;
			sheaves_free_held(w, this, batch);
			sheaves_between_ops(w, this);
		}
		pcb_dbg_time_empty(dbg);
	} while (!pcb_loop_done(&w->w));
}

/* ---- handoff ---- */

static inline unsigned long ring_load_acquire(const unsigned long *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void ring_store_release(unsigned long *p, unsigned long v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* the allocator: a burst, pushed to the ring if it has room for it */
static inline void sheaves_handoff_give(struct sheaves_worker *w, struct pcb_cpu *this, int batch)
{
	struct sheaves_ring *r = w->ring;
	unsigned long head = r->head;

	if (SHEAVES_RING - (head - ring_load_acquire(&r->tail)) < (unsigned long)w->burst) {
		slub_stat(this, HANDOFF_STALL);
		return;
	}
	sheaves_alloc_burst(w, this, w->burst, batch);
	for (int i = 0; i < w->nr_held; i++)
		r->slot[(head + (unsigned long)i) % SHEAVES_RING] = w->held[i];
	ring_store_release(&r->head, head + (unsigned long)w->nr_held);
	w->w.ops += (uint64_t)w->nr_held;
	w->nr_held = 0;
}

/* the freer: what arrived, a burst at most */
static inline void sheaves_handoff_take(struct sheaves_worker *w, struct pcb_cpu *this, int batch)
{
	struct sheaves_ring *r = w->ring;
	unsigned long tail = r->tail, avail = ring_load_acquire(&r->head) - tail;

	if (!avail) {
		slub_stat(this, HANDOFF_STALL);
		return;
	}
	w->nr_held = (int)pcb_min(avail, (unsigned long)w->burst);
	for (int i = 0; i < w->nr_held; i++) {
		w->held[i] = r->slot[(tail + (unsigned long)i) % SHEAVES_RING];
		/* the user reads what the allocating CPU's user wrote */
		(void)READ_ONCE(*(uint64_t *)w->held[i]);
	}
	ring_store_release(&r->tail, tail + (unsigned long)w->nr_held);
	w->w.ops += (uint64_t)w->nr_held;
	sheaves_free_held(w, this, batch);
}

static inline void sheaves_loop_handoff(struct sheaves_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;
	const int batch = w->w.timing == PCB_TIMING_BATCH;

	do {
		for (int c = 0; c < PCB_CHUNK; c += w->burst) {
			if (w->role == SHEAVES_ALLOCATOR)
				sheaves_handoff_give(w, this, batch);
			else
				sheaves_handoff_take(w, this, batch);
			sheaves_between_ops(w, this);
		}
		pcb_dbg_time_empty(this->h.dbg);
	} while (!pcb_loop_done(&w->w));
}

/* what a worker still holds freed, untimed; a freer's ring emptied too */
static inline void sheaves_release_held(struct sheaves_worker *w)
{
	struct pcb_cpu *this = w->w.cpu;

	for (int i = 0; i < w->nr_held; i++)
		kmem_cache_free(this, w->s, w->held[i]);
	w->nr_held = 0;
	if (w->role != SHEAVES_FREER)
		return;
	while (ring_load_acquire(&w->ring->head) != w->ring->tail) {
		unsigned long tail = w->ring->tail;

		kmem_cache_free(this, w->s, w->ring->slot[tail % SHEAVES_RING]);
		ring_store_release(&w->ring->tail, tail + 1);
	}
}

#endif
