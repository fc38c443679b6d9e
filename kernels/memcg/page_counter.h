/* SPDX-License-Identifier: MIT */
/*
 * struct page_counter and its charge paths, as in mm/page_counter.c and
 * include/linux/page_counter.h of v6.2: usage is an atomic_long_t alone in
 * its cache line, read-mostly limits and the parent pointer in another.
 */
#ifndef PCB_KERNELS_PAGE_COUNTER_H
#define PCB_KERNELS_PAGE_COUNTER_H

#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "../compiler.h"

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096UL		/* the kernel backend: the kernel's, the same */
#endif
#define PAGE_COUNTER_MAX (LONG_MAX / PAGE_SIZE)

struct page_counter {
	atomic_long usage;
	CACHELINE_PADDING(_pad1_);

	/* effective memory.min and memory.min usage tracking */
	unsigned long emin;
	atomic_long min_usage;
	atomic_long children_min_usage;

	/* effective memory.low and memory.low usage tracking */
	unsigned long elow;
	atomic_long low_usage;
	atomic_long children_low_usage;

	unsigned long watermark;
	unsigned long failcnt;

	CACHELINE_PADDING(_pad2_);

	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;
	struct page_counter *parent;
} ____cacheline_aligned;

_Static_assert(offsetof(struct page_counter, emin) == SMP_CACHE_BYTES,
	       "page_counter: usage alone in the first cache line");
_Static_assert(offsetof(struct page_counter, min) == 2 * SMP_CACHE_BYTES,
	       "page_counter: read-mostly fields in the third cache line");

static inline void page_counter_init(struct page_counter *counter,
				     struct page_counter *parent)
{
	atomic_store_explicit(&counter->usage, 0, memory_order_relaxed);
	counter->max = PAGE_COUNTER_MAX;
	counter->high = PAGE_COUNTER_MAX;
	counter->parent = parent;
}

static inline unsigned long page_counter_read(struct page_counter *counter)
{
	return atomic_load_explicit(&counter->usage, memory_order_relaxed);
}

/*
 * propagate_protected_usage(): with memory.min and memory.low at 0 (the
 * default) this is two reads of the second cache line per level.
 */
static inline void propagate_protected_usage(struct page_counter *c,
					     unsigned long usage)
{
	unsigned long protected, old_protected;
	long delta;

	if (!c->parent)
		return;

	protected = pcb_min(usage, READ_ONCE(c->min));
	old_protected = atomic_load_explicit(&c->min_usage, memory_order_relaxed);
	if (protected != old_protected) {
		/* atomic_long_xchg(): fully ordered */
		old_protected = atomic_exchange(&c->min_usage, protected);
		delta = protected - old_protected;
		if (delta)
			atomic_fetch_add_explicit(&c->parent->children_min_usage,
						  delta, memory_order_relaxed);
	}

	protected = pcb_min(usage, READ_ONCE(c->low));
	old_protected = atomic_load_explicit(&c->low_usage, memory_order_relaxed);
	if (protected != old_protected) {
		old_protected = atomic_exchange(&c->low_usage, protected);
		delta = protected - old_protected;
		if (delta)
			atomic_fetch_add_explicit(&c->parent->children_low_usage,
						  delta, memory_order_relaxed);
	}
}

/*
 * page_counter_cancel(). atomic_long_sub_return() is fully ordered in the
 * kernel; a seq_cst fetch_sub is the same lock-prefixed instruction on x86.
 */
static inline void page_counter_cancel(struct page_counter *counter,
				       unsigned long nr_pages)
{
	long new;

	new = atomic_fetch_sub(&counter->usage, (long)nr_pages) - (long)nr_pages;
	/* More uncharges than charges? The kernel WARNs and clamps; so do we. */
	if (unlikely(new < 0)) {
		new = 0;
		atomic_store(&counter->usage, new);
	}
	propagate_protected_usage(counter, new);
}

/* page_counter_uncharge(): cancel at every level up to the root */
static inline void page_counter_uncharge(struct page_counter *counter,
					 unsigned long nr_pages)
{
	struct page_counter *c;

	for (c = counter; c; c = c->parent)
		page_counter_cancel(c, nr_pages);
}

/* page_counter_try_charge(): optimistic add, back out above max */
static inline bool page_counter_try_charge(struct page_counter *counter,
					   unsigned long nr_pages,
					   struct page_counter **fail)
{
	struct page_counter *c;

	for (c = counter; c; c = c->parent) {
		long new;

		new = atomic_fetch_add(&c->usage, (long)nr_pages) + (long)nr_pages;
		if (new > (long)c->max) {
			atomic_fetch_sub(&c->usage, (long)nr_pages);
			/* data_race(c->failcnt++) in the kernel: a plain add, racy by design */
			__atomic_store_n(&c->failcnt, __atomic_load_n(&c->failcnt,
								      __ATOMIC_RELAXED) + 1,
					 __ATOMIC_RELAXED);
			*fail = c;
			goto failed;
		}
		propagate_protected_usage(c, new);
		if ((unsigned long)new > READ_ONCE(c->watermark))
			WRITE_ONCE(c->watermark, new);
	}
	return true;

failed:
	for (c = counter; c != *fail; c = c->parent)
		page_counter_cancel(c, nr_pages);

	return false;
}

#endif
