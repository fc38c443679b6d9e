/* SPDX-License-Identifier: MIT */
/*
 * The registry of lock designs and workloads. A design is one header in
 * kernels/locks/ plus a two-line unit in harness/designs/ that instantiates
 * harness/loop.h for it; the run picks the design's loop once, so no
 * operation makes an indirect call.
 */
#ifndef PCB_DESIGN_H
#define PCB_DESIGN_H

#include <stddef.h>

struct pcb_worker;
struct pcb_cpu;
struct mem_cgroup;

/* functions a table can have a row for, under their kernel names */
enum pcb_fn {
	PCB_FN_CONSUME_STOCK,
	PCB_FN_REFILL_STOCK,
	PCB_FN_NR,
};

/* under the kernel's spelling, as PCB_TIMED(consume_stock, ...) names them */
#define PCB_FN_consume_stock PCB_FN_CONSUME_STOCK
#define PCB_FN_refill_stock PCB_FN_REFILL_STOCK

extern const char *const pcb_fn_name[PCB_FN_NR];

struct pcb_design {
	const char *name;
	const char *summary;		/* one line for `pcpbench list` */
	const char *follows;		/* the seed, patch or kernel it models */
	size_t stock_size;		/* sizeof(struct memcg_stock_pcp) */
	size_t stock_hot_bytes;		/* bytes of it consume/refill touch */
	int remote_drain;		/* another CPU may drain a stock directly */

	void (*stock_init)(void *stock);
	/* one measured (or warm-up) run of the worker's loop */
	void (*run)(struct pcb_worker *w);
	/* uncharge what the worker still holds (uncharge_batch()), untimed */
	void (*release)(struct pcb_worker *w);
	/* the owner drains its own stock (drain_local_stock()) */
	void (*drain_local)(struct pcb_cpu *this);
	/* `this` drains `owner`'s stock; NULL unless remote_drain */
	void (*drain_remote)(struct pcb_cpu *this, struct pcb_cpu *owner);
	/* pages the stock holds for memcg, and whether it caches it */
	unsigned int (*stock_pages)(const void *stock, const struct mem_cgroup *memcg);
	const struct mem_cgroup *(*stock_cached)(const void *stock);
};

extern const struct pcb_design *const pcb_designs[];
const struct pcb_design *pcb_design_find(const char *name);

enum pcb_workload {
	PCB_WL_CHARGE,
	PCB_WL_NR,
};

struct pcb_workload_info {
	const char *name;
	const char *summary;
};

extern const struct pcb_workload_info pcb_workloads[PCB_WL_NR];

#endif
