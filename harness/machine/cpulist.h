/* SPDX-License-Identifier: MIT */
/*
 * A kernel's CPU lists, and the numbers in them (cpulist.c): below both
 * the topology (topo.c) and the machine's state (state*.c), which read
 * them.
 */
#ifndef PCB_MACHINE_CPULIST_H
#define PCB_MACHINE_CPULIST_H

#include <stddef.h>

#include <hwloc.h>

/*
 * CPU lists read from a file are refused past the most CPUs a kernel can
 * have (CONFIG_NR_CPUS's largest, x86_64's MAXSMP): a list of
 * "0-2147483647" is a quarter of a GiB as a bitmap, every time it is read
 */
#define PCB_CPU_MAX 8192

/*
 * a kernel's CPU list ("0-3,8", as bitmap_parselist() prints one) into
 * set: 0, or -1 with why (set empty) for what is not one or names a CPU
 * past PCB_CPU_MAX; an empty text is the empty set
 */
int pcb_cpulist_parse(const char *text, hwloc_bitmap_t set, char *why, size_t len);
/* a decimal number at s, *end past it: 0, or -1 where none is; ULONG_MAX past that */
int pcb_cpu_number(const char *s, const char **end, unsigned long *v);

#endif
