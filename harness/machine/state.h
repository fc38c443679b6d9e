/* SPDX-License-Identifier: MIT */
/*
 * The machine's state that moves figures, read from sysfs and procfs under
 * a root directory (PCPBENCH_SYSROOT, else "/"), as lockhammer checks
 * cpufreq before it runs and Google Benchmark records cpu_scaling_enabled
 * and aslr_enabled: for each worker CPU its cpufreq driver, governor and
 * frequency range, its SMT siblings and whether one is busy, its
 * isolation (isolcpus, nohz_full, rcu_nocbs), the share other tasks and
 * the hypervisor took of it; for the machine boost, ASLR, transparent huge
 * pages, the hypervisor (CPUID), perf_event_paranoid, the PMU, the tasks
 * runnable against the CPUs and the TSC step. Each setting is an item with a value and a verdict;
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

/*
 * src into dst (len bytes) with each line break written \n, so that no
 * value, printed, starts a line of its own: a machine's value as it is
 * read, a result's strings as a run writes them. The text stream
 * (pcb_text_stream()) escapes every other control byte where it is
 * printed.
 */
void pcb_one_line(char *dst, size_t len, const char *src);

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

/* where the kernel runs (state_platform.c): result.json's context.platform */
struct pcb_platform {
	char name[8];			/* native, vm or uml */
	char host[160];			/* uml: the host's uname, as its cpuinfo says it */
	char host_cpus[64];		/* uml: the host CPUs its threads run on (pcb.host_cpus=) */
	char pinning[32];		/* uml: how they are held there (pcb.pinning=) */
};

/* the platform under root ("/" or "ROOT/", as struct pcb_state's) into p */
void pcb_platform_read(const char *root, struct pcb_platform *p);

struct pcb_state {
	char root[PATH_MAX];		/* "/" or "ROOT/": what paths are read under */
	int nr, room, failed;
	struct pcb_state_item *item;
	struct pcb_platform platform;
};

/* a share of ticks above this, a sibling of a worker, or a worker's CPU before a run, is busy */
#define PCB_STATE_BUSY_PCT 10
/* a share of a worker CPU's time above this, the host stole too much of it */
#define PCB_STATE_STEAL_PCT 2

/*
 * The state under o->root of o->workers into st: 0, or -1 with err when
 * the root is not a directory or memory runs out (st then holds nothing).
 */
int pcb_state_read(struct pcb_state *st, const struct pcb_state_opts *o, char *err,
		   size_t errlen);
void pcb_state_free(struct pcb_state *st);
/* st empty, its root as pcb_state_read() finds it (NULL: PCPBENCH_SYSROOT, else "/"): 0 or -1 */
int pcb_state_init(struct pcb_state *st, const char *root, char *err, size_t errlen);
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
 * irq, softirq; steal left out) between two /proc/stat texts (before
 * NULL: since boot); -1 when either lacks the CPU or no tick passed.
 */
int pcb_state_busy_pct(const char *before, const char *after, unsigned int cpu);
/* the share (percent) of cpu's time the hypervisor stole (the steal column), likewise */
int pcb_state_steal_pct(const char *before, const char *after, unsigned int cpu);
/* the CPUs a /proc/stat text has a line of */
int pcb_state_stat_cpus(const char *stat);

/* /proc/stat and /proc/loadavg under a root at one moment */
struct pcb_load_sample {
	char *stat;			/* /proc/stat, NULL where it cannot be read */
	double load1;			/* the 1-minute load average, -1 where unread */
	int running;			/* procs_running: tasks runnable now, -1 where unread */
};

/* a sample under root ("/" or "ROOT/", as struct pcb_state's); pcb_load_sample_free() it */
void pcb_load_sample_take(struct pcb_load_sample *s, const char *root);
void pcb_load_sample_free(struct pcb_load_sample *s);

/* a period between two samples, and what of it is pcpbench's own */
struct pcb_load_period {
	const struct pcb_load_sample *before;	/* NULL: since boot */
	const struct pcb_load_sample *after;
	double seconds;			/* how long it was */
	hwloc_const_bitmap_t workers;
	int online;			/* the CPUs */
	/* pcpbench's tasks: at its end (before a run, 1), or busy through it (over the runs) */
	int ours;
	int run;			/* over the runs: the workers ran on their CPUs */
};

/*
 * The items judging a period: before a run, others' share of each worker
 * CPU (load), the host's (steal) and the tasks runnable against the CPUs
 * (runnable); over the runs, run.steal and run.load, the load average
 * with the workers in it
 */
void pcb_state_load_items(struct pcb_state *st, const struct pcb_load_period *p);

/*
 * The CPU's performance monitoring unit under root ("/" or "ROOT/"), as
 * perf lists it in sys/bus/event_source/devices: 1 with its name in buf,
 * 0 ("none") where the machine has none (many VMs)
 */
int pcb_state_pmu(const char *root, char *name, size_t len);

/*
 * CPUID's hypervisor bit (leaf 1, ECX bit 31) and vendor (leaf
 * 0x40000000): 1 with the vendor in buf, 0 on bare metal.
 * PCPBENCH_HYPERVISOR stands in for CPUID ("none" or a vendor), as the
 * tests' fixture trees need: CPUID is not under the root.
 */
int pcb_state_hypervisor(char *buf, size_t len);
/* whether that vendor is QEMU's TCG: an emulated CPU, whose clock is no timer of cycles */
int pcb_state_emulated(const char *vendor);

#endif
