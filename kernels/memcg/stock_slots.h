/* SPDX-License-Identifier: MIT */
/*
 * The page stock of seed 002: NR_MEMCG_STOCK memcgs cached in one cache
 * line, a victim evicted when all slots are taken. Included by
 * memcg_stock.h for slots > 1.
 */
#ifndef PCB_MEMCG_STOCK_SLOTS_H
#define PCB_MEMCG_STOCK_SLOTS_H

static __always_inline bool consume_stock(struct pcb_cpu *this, struct mem_cgroup *memcg,
				 unsigned int nr_pages)
{
	struct memcg_stock_pcp *stock;
	uint8_t stock_pages;
	unsigned long flags;
	bool ret = false;
	int i, n;

	if (nr_pages > MEMCG_CHARGE_BATCH || stock_bypassed(this))
		return ret;

	stock = this_cpu_stock(this);
	if (!memcg_stock_lock_hot(this, stock, &flags))
		return ret;

	n = NR_MEMCG_STOCK;
	for (i = 0; i < n; ++i) {
		if (memcg != READ_ONCE(stock->cached[i]))
			continue;

		stock_pages = READ_ONCE(stock->nr_pages[i]);
		if (stock_pages >= nr_pages) {
			WRITE_ONCE(stock->nr_pages[i], stock_pages - nr_pages);
			ret = true;
		}
		break;
	}

	memcg_stock_unlock(this, stock, flags);

	return ret;
}

#include "stock_drain.h"

/* the slot to evict: get_random_u32_below(), or round robin (a knob) */
static inline int stock_victim(struct pcb_cpu *cpu, int n)
{
	struct memcg_cpu *this = memcg_cpu(cpu);
	uint32_t x = this->evict_state;

	if (this->evict_round_robin) {
		this->evict_state = (x + 1) % (unsigned int)n;
		return (int)this->evict_state;
	}
	/* get_random_u32_below(): a per-CPU xorshift32 */
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	this->evict_state = x;
	return (int)(((uint64_t)x * (uint32_t)n) >> 32);
}

static __always_inline void __refill_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock,
				  struct mem_cgroup *memcg, unsigned int nr_pages)
{
	struct mem_cgroup *cached;
	uint8_t stock_pages;
	bool success = false;
	int empty_slot = -1;
	int i, n = NR_MEMCG_STOCK;

	if (stock_bypassed(this)) {
		memcg_uncharge(this, memcg, nr_pages);
		return;
	}
	for (i = 0; i < n; ++i) {
		cached = READ_ONCE(stock->cached[i]);
		if (!cached && empty_slot == -1)
			empty_slot = i;
		if (memcg == READ_ONCE(stock->cached[i])) {
			stock_pages = READ_ONCE(stock->nr_pages[i]) + nr_pages;
			WRITE_ONCE(stock->nr_pages[i], stock_pages);
			if (stock_pages > MEMCG_CHARGE_BATCH)
				drain_stock(this, stock, i);
			success = true;
			break;
		}
	}

	if (!success) {
		i = empty_slot;
		if (i == -1) {
			i = stock_victim(this, n);
			drain_stock(this, stock, i);
		}
		css_get(this, &memcg->css);
		WRITE_ONCE(stock->cached[i], memcg);
		WRITE_ONCE(stock->nr_pages[i], nr_pages);
	}
}

static inline unsigned int stock_pages_of(const struct memcg_stock_pcp *stock,
					  const struct mem_cgroup *memcg)
{
	unsigned int pages = 0;

	for (int i = 0; i < NR_MEMCG_STOCK; i++)
		if (READ_ONCE(stock->cached[i]) == memcg)
			pages += READ_ONCE(stock->nr_pages[i]);
	return pages;
}


static inline bool stock_flush_required(struct memcg_stock_pcp *stock, struct mem_cgroup *root)
{
	for (int i = 0; i < NR_MEMCG_STOCK; ++i) {
		struct mem_cgroup *memcg = READ_ONCE(stock->cached[i]);

		if (memcg && READ_ONCE(stock->nr_pages[i]) && mem_cgroup_is_descendant(memcg, root))
			return true;
	}
	return false;
}

#endif
