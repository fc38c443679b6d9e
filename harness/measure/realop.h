/* SPDX-License-Identifier: MIT */
/*
 * Real operations of this machine, each timed as the seed that reports a
 * share of it ran it, so that a modeled difference in cycles per call can
 * be set against what the whole operation costs here:
 *
 *  mmap        seed 000, 2.4: page_mmap() and page_munmap() of one 4 KiB
 *              anonymous page, its own loop timed whole
 *  mmap_write  the same with page[3] = i between them (-DMY_WRITE): a page
 *              fault, a page charged, zeroed and freed
 *  fault       mmtests' pft (seeds 003, 004): a region of anonymous memory
 *              touched once per 4 KiB page, then unmapped; per page, the
 *              fault and its share of the munmap that frees it
 *  tcp_rr      netperf TCP_RR over loopback: a 1-byte request answered by a
 *              1-byte response, client and server on their own CPUs
 *  tcp_stream  netperf -t TCP_SENDFILE -- -m 10K over loopback (seed 002):
 *              one 10 KiB sendfile() the server reads whole
 *
 * A run is `ops` operations between two TSC reads; the figure is the mean
 * of the runs' ticks per operation, with the standard deviation of the run
 * means, as every other table of pcpbench states its figures.
 */
#ifndef PCB_REALOP_H
#define PCB_REALOP_H

#include <stddef.h>
#include <stdint.h>

enum pcb_realop_kind {
	PCB_REALOP_MMAP,
	PCB_REALOP_MMAP_WRITE,
	PCB_REALOP_FAULT,
	PCB_REALOP_TCP_RR,
	PCB_REALOP_TCP_STREAM,
	PCB_REALOPS
};

#define PCB_REALOP_MAX_RUNS	64
/* pft's region: 4 KiB pages touched a run, each faulting (MADV_NOHUGEPAGE) */
#define PCB_REALOP_FAULT_PAGES	16384
/* seed 002's netperf -m 10K */
#define PCB_REALOP_STREAM_BYTES	(10 * 1024)

struct pcb_realop_desc {
	const char *name;
	const char *op;			/* what one operation is */
	const char *follows;		/* the seed and how it ran it */
	uint64_t default_ops;		/* a run's operations */
};

extern const struct pcb_realop_desc pcb_realop_desc[PCB_REALOPS];

struct pcb_realop_req {
	enum pcb_realop_kind kind;
	int cpu;			/* the CPU that runs it (the client), -1: where the caller is */
	int peer_cpu;			/* tcp: the server's CPU, -1: the client's */
	int runs;			/* 1 .. PCB_REALOP_MAX_RUNS */
	uint64_t ops;			/* a run's operations, 0: the kind's default */
};

struct pcb_realop_result {
	enum pcb_realop_kind kind;
	int runs;
	uint64_t ops;
	double run[PCB_REALOP_MAX_RUNS];	/* ticks per operation, each run */
	double mean, stddev;		/* of the run figures */
	double min;
};

/* the kind named name, or -1 */
int pcb_realop_find(const char *name);
/* the kinds' names, "mmap, mmap_write, ..." */
const char *pcb_realop_names(void);
/*
 * Time req->runs runs of the operation on the calling thread (pinned to
 * req->cpu while it runs, its affinity restored after). 0, or -1 with a
 * message naming the system call that failed.
 */
int pcb_realop_measure(const struct pcb_realop_req *req, struct pcb_realop_result *res,
		       char *err, size_t errlen);

#endif
