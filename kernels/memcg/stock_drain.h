/* SPDX-License-Identifier: MIT */
/*
 * drain_stock() of a stock with NR_MEMCG_STOCK slots: seed 002's, which
 * Linux 7.3 kept (mm/memcontrol.c drain_stock() and drain_stock_fully()).
 * Included by stock_slots.h and stock_7_3.h, after their struct
 * memcg_stock_pcp; memcg_uncharge() is memcg_stock.h's.
 */
#ifndef PCB_MEMCG_STOCK_DRAIN_H
#define PCB_MEMCG_STOCK_DRAIN_H

/* drain_stock(): slot i's pages back to the page_counter, its reference dropped */
static inline void drain_stock(struct pcb_cpu *this, struct memcg_stock_pcp *stock, int i)
{
	struct mem_cgroup *old = READ_ONCE(stock->cached[i]);
	uint8_t stock_pages;

	if (!old)
		return;

	stock_pages = READ_ONCE(stock->nr_pages[i]);
	if (stock_pages) {
		memcg_uncharge(this, old, stock_pages);
		WRITE_ONCE(stock->nr_pages[i], 0);
	}

	css_put(this, &old->css);
	WRITE_ONCE(stock->cached[i], NULL);
}

static inline void drain_stock_fully(struct pcb_cpu *this, struct memcg_stock_pcp *stock)
{
	for (int i = 0; i < NR_MEMCG_STOCK; ++i)
		drain_stock(this, stock, i);
}

#endif
