/* SPDX-License-Identifier: MIT */
/*
 * One modeled CPU's area, laid out once for both backends (run/cpu_area.c
 * and the kernel backend's kmod/run.c): the model's per-CPU struct
 * (struct pcb_cpu first) on its own cache lines; the stock where its
 * placement puts it (struct pcb_stock_place); room for the model's
 * per-CPU variables that follow the stock in the kernel (pcb_cpu.stock_next:
 * right after it when packed, on the next line when aligned); then, for
 * designs whose drain swaps stocks, a spare stock on its own lines.
 */
#ifndef PCB_SEAM_AREA_H
#define PCB_SEAM_AREA_H

#include "pcb/model.h"

/* the room after the stock for the variables that follow it */
#define PCB_STOCK_NEXT_BYTES	PCB_CACHE_LINE

struct pcb_area_layout {
	size_t size;			/* the area's bytes */
	size_t stock;			/* where the stock starts */
	size_t next;			/* where the variables after it start */
	size_t spare;			/* where the spare stock starts; 0: none */
};

static inline size_t pcb_round_line(size_t n)
{
	return (n + PCB_CACHE_LINE - 1) & ~(size_t)(PCB_CACHE_LINE - 1);
}

static inline struct pcb_area_layout pcb_area_layout(const struct pcb_design *d,
						     const struct pcb_variant *v,
						     struct pcb_stock_place place)
{
	struct pcb_area_layout l = { .stock = pcb_round_line(v->cpu_size) };

	if (place.packed) {
		/* the next variable as the linker places it: at the stock's end, long-aligned */
		l.stock += place.offset % PCB_CACHE_LINE;
		l.next = (l.stock + v->stock_size + sizeof(long) - 1) & ~(sizeof(long) - 1);
	} else {
		l.next = l.stock + pcb_round_line(v->stock_size);
	}
	l.size = pcb_round_line(l.next + PCB_STOCK_NEXT_BYTES);
	if (d->drain.spare_stock) {
		l.spare = l.size;
		l.size += pcb_round_line(v->stock_size);
	}
	return l;
}

#endif
