/* SPDX-License-Identifier: MIT */
/*
 * What state.c, state_cpu.c, state_kernel.c and state_load.c share,
 * inside machine/:
 * an item added, a file under the root read, and the readers of each
 * part of the state.
 */
#ifndef PCB_STATE_READ_H
#define PCB_STATE_READ_H

#include <stddef.h>
#include <stdio.h>

#include "state.h"

/* an item of setting about cpu (-1: the machine), merged with one of the same verdict and text */
void pcb_state_add(struct pcb_state *st, const char *setting, int cpu, enum pcb_state_verdict v,
		   const char *value, const char *note);
/*
 * path opened for reading only if it is a regular file (a FIFO or a
 * directory under a fixture root would block a read or read as empty),
 * never waiting on the open itself; NULL with errno set otherwise
 */
FILE *pcb_state_fopen(const char *path);
/* the file rel under the root, its trailing blanks cut: 0, or -errno (-EFBIG: past len) */
int pcb_state_file_text(const struct pcb_state *st, const char *rel, char *buf, size_t len);

/* the most read of a file under the root whole: /proc/stat of NR_CPUS CPUs and their irqs */
#define PCB_STATE_MAX_BYTES (4 << 20)
/* the file rel under root whole, malloc'ed; NULL with errno (EFBIG past the bound) */
char *pcb_state_file_all(const char *root, const char *rel);
/*
 * the CPU list rel under root ("0-3,8"), as bounded as the CPUs a kernel
 * can have: 0, or -errno with why saying what is wrong (-EINVAL: not such a
 * list), set empty
 */
int pcb_state_file_cpus(const char *root, const char *rel, hwloc_bitmap_t set, char *why,
			size_t len);
/* a number in the file rel: 0, or -1 with note naming the file and what is wrong */
int pcb_state_file_long(const struct pcb_state *st, const char *rel, long *v, char *note,
			size_t len);

/* "cpuN a b c ..." of cpu in a /proc/stat text: its first 8 fields, 0 if absent */
int pcb_state_stat_line(const char *text, unsigned int cpu, unsigned long long f[8]);

/* each worker's cpufreq, boost and SMT siblings (state_cpu.c) */
void pcb_state_read_cpus(struct pcb_state *st, const struct pcb_state_opts *o);
/* isolation, ASLR, THP, perf_event_paranoid, the PMU (state_kernel.c) */
void pcb_state_read_kernel(struct pcb_state *st, const struct pcb_state_opts *o);
/* native, a VM or User-mode Linux, and UML's host (state_platform.c) */
void pcb_state_read_platform(struct pcb_state *st);
/* others' load on the workers' CPUs, steal, runnable tasks, over a sample (state_load.c) */
void pcb_state_read_load(struct pcb_state *st, const struct pcb_state_opts *o);

#endif
