/* SPDX-License-Identifier: MIT */
/*
 * The instrumented kernel's counters (run.backend = instrumented): seed
 * 000's instrument as scripts/kernel.sh builds it into mm/memcontrol.c
 * (rig/instrument/), per-CPU cycle sums and calls of the stock functions,
 * read from debugfs, and what the kernel says it was built as. Files are
 * read under PCPBENCH_SYSROOT, as state.c reads them.
 */
#ifndef PCB_MACHINE_INSTRUMENT_H
#define PCB_MACHINE_INSTRUMENT_H

#include <stddef.h>
#include <stdint.h>

/* the instrument's folder in debugfs */
#define PCB_INSTR_DIR "/sys/kernel/debug/pcpbench"
/* functions the instrument names; a file naming more is refused */
#define PCB_INSTR_MAX_FNS 16
/* the longest function name it may name */
#define PCB_INSTR_FN_LEN 48

/* what the booted kernel says of itself: its build file, its release and build id */
/* the primitives a build file may time (prim_*_cycles_median) */
#define PCB_INSTR_MAX_PRIMS 8

struct pcb_instr_build {
	char variant[128];		/* scripts/kernel.sh's name, "6.1+seed-000-1-4" */
	char series[256];		/* the series and its sha256 */
	char config[96];		/* sha256 of the kernel's .config */
	char instrument[32];		/* cycles, or contention (spin_lock_irqsave_cc) */
	char stock_lock[32];		/* memcg_stock.stock_lock's type as compiled */
	long stock_size, stock_align;	/* sizeof and __alignof__ of memcg_stock */
	long stock_offset;		/* where it starts in its cache line */
	/* obj_stock's, where the stocks are apart (7.3's instrument); -1 else */
	long obj_stock_size, obj_stock_align, obj_stock_offset;
	long empty_min, empty_median;	/* cycles of a region around nothing, the reader's CPU */
	/*
	 * prim_NAME_cycles_median: the median region of a primitive repeated
	 * prim_repeat times, the empty region in it (7.3's instrument)
	 */
	long prim_repeat;
	int nr_prims;
	struct {
		char name[24];
		long cycles;
	} prim[PCB_INSTR_MAX_PRIMS];
	char release[128];		/* /proc/sys/kernel/osrelease */
	char build_id[41];		/* vmlinux's GNU build id, /sys/kernel/notes */
};

/* a function's sums on one CPU since boot (or the last reset) */
struct pcb_instr_sum {
	uint64_t cycles, calls;
	uint64_t contended, wait_cycles, wait_max;	/* the contention instrument's */
};

/* every CPU's sums of each function the instrument names */
struct pcb_instr_sums {
	int nr_fns, nr_cpus;		/* cpu is below nr_cpus */
	char fn[PCB_INSTR_MAX_FNS][PCB_INSTR_FN_LEN];
	struct pcb_instr_sum *sum;	/* [cpu * PCB_INSTR_MAX_FNS + fn] */
};

/*
 * The instrument's build file and the kernel's release and build id:
 * 0, or -1 with a sentence in err (no instrument in this kernel, or a
 * file that does not read as one)
 */
int pcb_instr_probe(struct pcb_instr_build *b, char *err, size_t errlen);

/* the stock lock's field as the kernel names it: 7.3's stocks apart name it lock */
static inline const char *pcb_instr_lock_field(const struct pcb_instr_build *b)
{
	return b->obj_stock_size >= 0 ? "memcg_stock.lock" : "memcg_stock.stock_lock";
}
/*
 * The counters now, into s (which pcb_instr_sums_free() frees): 0, or -1
 * with err naming the file and line that is not the instrument's
 */
int pcb_instr_read(struct pcb_instr_sums *s, char *err, size_t errlen);
/* the counters read from text (file names it in errors): 0, or -1 with err */
int pcb_instr_parse(struct pcb_instr_sums *s, const char *file, const char *text, char *err,
		    size_t errlen);
/* the function's index in s, -1 where it names none such */
int pcb_instr_fn(const struct pcb_instr_sums *s, const char *name);
/* cpu's sums of function f, zero where the file had no line */
struct pcb_instr_sum pcb_instr_get(const struct pcb_instr_sums *s, int cpu, int f);
void pcb_instr_sums_free(struct pcb_instr_sums *s);

#endif
