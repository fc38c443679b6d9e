/* SPDX-License-Identifier: MIT */
/*
 * The machine's state that moves figures, read from sysfs and procfs under
 * a root directory (PCPBENCH_SYSROOT, else "/"), as lockhammer checks
 * cpufreq before it runs and Google Benchmark records cpu_scaling_enabled
 * and aslr_enabled: for each worker CPU its cpufreq driver, governor and
 * frequency range, its SMT siblings and whether one is busy, its
 * isolation (isolcpus, nohz_full, rcu_nocbs); for the machine boost,
 * ASLR, transparent huge pages, the hypervisor (CPUID), perf_event_paranoid
 * and the TSC step. Each setting is an item with a value and a verdict;
 * a file that is absent (a VM has no cpufreq) makes its item unknown, with
 * a note naming the file, never an error.
 */
#ifndef PCB_STATE_H
#define PCB_STATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>

enum pcb_state_verdict {
	PCB_STATE_OK,		/* as a measurement wants it */
	PCB_STATE_NOTE,		/* changes what some figures mean: recorded, not refused */
	PCB_STATE_UNKNOWN,	/* could not be read here */
	PCB_STATE_BAD,		/* figures taken so are not to be trusted: check exits 1 */
};

struct pcb_state_item {
	const char *setting;		/* "cpufreq.governor": pcb_state_effect()'s key */
	hwloc_bitmap_t cpus;		/* the workers it is about; NULL: the machine's */
	enum pcb_state_verdict verdict;
	char value[192];
	char note[320];			/* where it was read, or why it is unknown */
};

struct pcb_state_opts {
	const char *root;		/* NULL: PCPBENCH_SYSROOT, else "/" */
	hwloc_const_bitmap_t workers;
	uint64_t tsc_step;		/* the clock's (struct pcb_clock step); 0: not measured */
	/* this process's address randomization (pcb_aslr_status()); NULL: what run would do */
	const char *aslr;
	int sample_ms;			/* /proc/stat sample of idle siblings (this machine only) */
};

struct pcb_state {
	char root[PATH_MAX];		/* "/" or "ROOT/": what paths are read under */
	int nr, room, failed;
	struct pcb_state_item *item;
};

/* a share of ticks above this, a sibling of a worker is busy */
#define PCB_STATE_BUSY_PCT 10

/*
 * The state under o->root of o->workers into st: 0, or -1 with err when
 * the root is not a directory or memory runs out (st then holds nothing).
 */
int pcb_state_read(struct pcb_state *st, const struct pcb_state_opts *o, char *err,
		   size_t errlen);
void pcb_state_free(struct pcb_state *st);
/* items of verdict BAD */
int pcb_state_nr_bad(const struct pcb_state *st);
/* the first item of setting about cpu (-1: the machine's), NULL if none */
const struct pcb_state_item *pcb_state_find(const struct pcb_state *st, const char *setting,
					    int cpu);
/* what a setting does to a figure, for check and the docs */
const char *pcb_state_effect(const char *setting);
const char *pcb_state_verdict_name(enum pcb_state_verdict v);

/*
 * The share (percent) of cpu's ticks that were busy (user, nice, system,
 * irq, softirq; steal left out) between two /proc/stat texts; -1 when
 * either lacks the CPU or no tick passed.
 */
int pcb_state_busy_pct(const char *before, const char *after, unsigned int cpu);

/*
 * CPUID's hypervisor bit (leaf 1, ECX bit 31) and vendor (leaf
 * 0x40000000): 1 with the vendor in buf, 0 on bare metal.
 * PCPBENCH_HYPERVISOR stands in for CPUID ("none" or a vendor), as the
 * tests' fixture trees need: CPUID is not under the root.
 */
int pcb_state_hypervisor(char *buf, size_t len);

#endif
