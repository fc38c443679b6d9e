/* SPDX-License-Identifier: MIT */
/*
 * Topology (hwloc), CPU sets, pinning and node-local placement (libnuma).
 *
 * The topology is this machine's, or a synthetic one: an hwloc synthetic
 * description ("numa:8 core:16 pu:1") or an hwloc XML file, chosen with
 * --topology or PCPBENCH_TOPOLOGY. A synthetic topology can be inspected and
 * planned against, not run on.
 */
#ifndef PCB_TOPO_H
#define PCB_TOPO_H

#include <limits.h>
#include <stddef.h>

#include <hwloc.h>

#include "cpulist.h"

struct pcb_topo_cpu {
	unsigned int os;	/* OS index */
	int core;		/* logical index of its core */
	int node;		/* OS index of its NUMA node, -1 if none */
};

struct pcb_topo_node {
	unsigned int os;
	hwloc_bitmap_t cpus;
};

struct pcb_topo {
	hwloc_topology_t hw;
	int synthetic;			/* not this machine: no pinning */
	char source[256];		/* "this machine", or the description */
	int nr_cpus, nr_cores, nr_nodes;
	struct pcb_topo_cpu *cpu;	/* ordered by OS index */
	struct pcb_topo_node *node;	/* ordered by OS index */
	hwloc_bitmap_t all;
	hwloc_bitmap_t isolated;	/* cpu_is_isolated() */
	char isolated_source[PATH_MAX + 192];	/* the file read, or why none was */
	hwloc_bitmap_t nohz_full;	/* empty when unknown */
	char cpu_model[128];
	/* data/unified caches by level: size, line, CPUs sharing one; 0 if absent */
	struct pcb_topo_cache {
		unsigned long long size;
		unsigned int line;
		int cpus;
		int count;
	} cache[4];		/* [1]..[3]: L1d, L2, L3 */
};

/* spec NULL: PCPBENCH_TOPOLOGY, else this machine */
int pcb_topo_load(struct pcb_topo *t, const char *spec, char *err, size_t errlen);
void pcb_topo_destroy(struct pcb_topo *t);

/*
 * Parse a CPU set: comma-separated terms, each `all`, `node:N`, `isolated`,
 * `housekeeping` (all but isolated), `N` or `N-M`; a term starting with `!`
 * removes its CPUs. Terms apply left to right. Returns 0, or -1 with a
 * message in err.
 */
int pcb_cpuset_parse(const struct pcb_topo *t, const char *expr, hwloc_bitmap_t out,
		     char *err, size_t errlen);
/* "sysfs" (/sys/devices/system/cpu/isolated), "none", or a CPU list */
int pcb_topo_set_isolated(struct pcb_topo *t, const char *expr, char *err, size_t errlen);

const struct pcb_topo_cpu *pcb_topo_cpu(const struct pcb_topo *t, unsigned int os);
/* pin the calling thread to one CPU; 0 or -errno */
int pcb_topo_pin(const struct pcb_topo *t, unsigned int os);
/* a list such as "0-7,64-71" */
void pcb_cpuset_format(hwloc_const_bitmap_t set, char *buf, size_t len);
/* the same, in a string of its own length (free() it); NULL if out of memory */
char *pcb_cpuset_string(hwloc_const_bitmap_t set);

/* node-local memory, first touched by the caller; size a multiple of 64 */
void *pcb_alloc_on_node(size_t size, int node);
void pcb_free_on_node(void *p, size_t size);
/* the calling thread's new pages from node first, or as by default (-1); 0 or -errno */
int pcb_prefer_node(int node);
/* NUMA node the page at p is on, -1 if unknown */
int pcb_node_of_addr(void *p);

#endif
