/* SPDX-License-Identifier: MIT */
/*
 * A kernel's CPU lists (cpulist.h): what topo.c parses a CPU set
 * expression with, and what state.c reads sysfs's lists with.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpulist.h"

int pcb_cpu_number(const char *s, const char **end, unsigned long *v)
{
	char *e;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoul(s, &e, 10);
	if (errno)
		*v = ULONG_MAX;
	*end = e;
	return 0;
}

int pcb_cpulist_parse(const char *text, hwloc_bitmap_t set, char *why, size_t len)
{
	const char *s = text;

	hwloc_bitmap_zero(set);
	while (*s) {
		unsigned long a, b;

		if (pcb_cpu_number(s, &s, &a) < 0)
			goto bad;
		b = a;
		if (*s == '-' && (pcb_cpu_number(s + 1, &s, &b) < 0 || b < a))
			goto bad;
		if (b >= PCB_CPU_MAX) {
			hwloc_bitmap_zero(set);
			snprintf(why, len, "CPU %lu is past the %d a kernel can have (NR_CPUS)", b,
				 PCB_CPU_MAX);
			return -1;
		}
		hwloc_bitmap_set_range(set, (unsigned int)a, (int)b);
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			goto bad;
	}
	return 0;
bad:
	hwloc_bitmap_zero(set);
	snprintf(why, len, "not a CPU list");
	return -1;
}
