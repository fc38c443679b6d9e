/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "state_read.h"
#include "topo.h"

/* PCPBENCH_SYSROOT, when it names a tree to read the machine's files under */
static int has_sysroot(void)
{
	const char *root = getenv("PCPBENCH_SYSROOT");

	return root && *root;
}

/*
 * the CPU list rel of sysfs under the root (PCPBENCH_SYSROOT, else "/")
 * into set, where it is read; source says where, or why it is not
 */
static void read_sysfs_list(const char *rel, hwloc_bitmap_t set, char *source, size_t len)
{
	struct pcb_state st;
	char why[PATH_MAX + 128];

	hwloc_bitmap_zero(set);
	if (pcb_state_init(&st, NULL, why, sizeof(why)) < 0) {
		if (source)
			snprintf(source, len, "none taken: %s", why);
		return;
	}
	if (pcb_state_file_cpus(st.root, rel, set, why, sizeof(why)) < 0) {
		if (source)
			snprintf(source, len, "none taken: %s%s: %s", st.root, rel, why);
		return;
	}
	if (source)
		snprintf(source, len, "%s%s", st.root, rel);
}

static void cpu_model_fallback(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct pcb_topo_cpu *x = a, *y = b;

	return (x->os > y->os) - (x->os < y->os);
}

static int cmp_node(const void *a, const void *b)
{
	const struct pcb_topo_node *x = a, *y = b;

	return (x->os > y->os) - (x->os < y->os);
}

/* t->hw: the hwloc XML file or synthetic description spec, else this machine */
static int open_hw(struct pcb_topo *t, const char *spec, char *err, size_t errlen)
{
	if (hwloc_topology_init(&t->hw) < 0) {
		snprintf(err, errlen, "hwloc: cannot initialise a topology");
		return -1;
	}
	if (spec) {
		int rc;

		if (access(spec, R_OK) == 0)
			rc = hwloc_topology_set_xml(t->hw, spec);
		else
			rc = hwloc_topology_set_synthetic(t->hw, spec);
		if (rc < 0) {
			snprintf(err, errlen, "topology '%s': neither a readable hwloc XML file "
				 "nor a valid hwloc synthetic description", spec);
			hwloc_topology_destroy(t->hw);
			t->hw = NULL;
			return -1;
		}
		snprintf(t->source, sizeof(t->source), "%s", spec);
	} else {
		snprintf(t->source, sizeof(t->source), "this machine");
	}
	if (hwloc_topology_load(t->hw) < 0) {
		snprintf(err, errlen, "hwloc: cannot load the topology: %s", strerror(errno));
		hwloc_topology_destroy(t->hw);
		t->hw = NULL;
		return -1;
	}
	t->synthetic = !hwloc_topology_is_thissystem(t->hw);
	return 0;
}

/* how many CPUs, cores and nodes there are, and room for them and the CPU sets */
static int alloc_topo(struct pcb_topo *t, char *err, size_t errlen)
{
	t->nr_cpus = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU);
	t->nr_cores = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_CORE);
	t->nr_nodes = hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_NUMANODE);
	t->cpu = calloc((size_t)t->nr_cpus, sizeof(*t->cpu));
	t->node = calloc((size_t)(t->nr_nodes ? t->nr_nodes : 1), sizeof(*t->node));
	t->all = hwloc_bitmap_alloc();
	t->isolated = hwloc_bitmap_alloc();
	t->nohz_full = hwloc_bitmap_alloc();
	if (!t->cpu || !t->node || !t->all || !t->isolated || !t->nohz_full) {
		snprintf(err, errlen, "out of memory");
		pcb_topo_destroy(t);
		return -1;
	}
	return 0;
}

/* each NUMA node with its CPUs, ordered by OS index */
static void read_nodes(struct pcb_topo *t)
{
	for (int i = 0; i < t->nr_nodes; i++) {
		hwloc_obj_t obj = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE, (unsigned int)i);

		t->node[i].os = obj->os_index;
		t->node[i].cpus = hwloc_bitmap_dup(obj->cpuset);
	}
	qsort(t->node, (size_t)t->nr_nodes, sizeof(*t->node), cmp_node);
}

/* each CPU with its core and node, ordered by OS index, and the set of them all */
static void read_cpus(struct pcb_topo *t)
{
	for (int i = 0; i < t->nr_cpus; i++) {
		hwloc_obj_t obj, core;

		obj = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PU, (unsigned int)i);
		core = hwloc_get_ancestor_obj_by_type(t->hw, HWLOC_OBJ_CORE, obj);
		t->cpu[i].os = obj->os_index;
		t->cpu[i].core = core ? (int)core->logical_index : i;
		t->cpu[i].node = -1;
		for (int n = 0; n < t->nr_nodes; n++)
			if (hwloc_bitmap_isset(t->node[n].cpus, obj->os_index))
				t->cpu[i].node = (int)t->node[n].os;
		hwloc_bitmap_set(t->all, obj->os_index);
	}
	qsort(t->cpu, (size_t)t->nr_cpus, sizeof(*t->cpu), cmp_cpu);
}

/* the first data or unified cache of each level */
static void read_caches(struct pcb_topo *t)
{
	static const hwloc_obj_type_t type[] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
	};

	for (int level = 1; level <= 3; level++) {
		hwloc_obj_t obj = hwloc_get_obj_by_type(t->hw, type[level], 0);

		if (!obj || !obj->attr)
			continue;
		t->cache[level].size = obj->attr->cache.size;
		t->cache[level].line = obj->attr->cache.linesize;
		t->cache[level].cpus = hwloc_bitmap_weight(obj->cpuset);
		t->cache[level].count = hwloc_get_nbobjs_by_type(t->hw, type[level]);
	}
}

/* the CPU model as hwloc names it, else as /proc/cpuinfo does */
static void read_cpu_model(struct pcb_topo *t)
{
	hwloc_obj_t obj = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_PACKAGE, 0);

	if (obj && hwloc_obj_get_info_by_name(obj, "CPUModel"))
		snprintf(t->cpu_model, sizeof(t->cpu_model), "%s",
			 hwloc_obj_get_info_by_name(obj, "CPUModel"));
	else if (t->synthetic)
		snprintf(t->cpu_model, sizeof(t->cpu_model), "synthetic");
	else
		cpu_model_fallback(t->cpu_model, sizeof(t->cpu_model));
}

int pcb_topo_load(struct pcb_topo *t, const char *spec, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (!spec || !*spec)
		spec = getenv("PCPBENCH_TOPOLOGY");
	if (spec && !*spec)
		spec = NULL;

	if (open_hw(t, spec, err, errlen) < 0 || alloc_topo(t, err, errlen) < 0)
		return -1;
	read_nodes(t);
	read_cpus(t);
	read_caches(t);
	read_cpu_model(t);
	if (!t->synthetic || has_sysroot())
		read_sysfs_list("sys/devices/system/cpu/nohz_full", t->nohz_full, NULL, 0);
	return pcb_topo_set_isolated(t, "sysfs", err, errlen);
}

void pcb_topo_destroy(struct pcb_topo *t)
{
	if (t->node)
		for (int i = 0; i < t->nr_nodes; i++)
			hwloc_bitmap_free(t->node[i].cpus);
	free(t->node);
	free(t->cpu);
	hwloc_bitmap_free(t->all);
	hwloc_bitmap_free(t->isolated);
	hwloc_bitmap_free(t->nohz_full);
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	memset(t, 0, sizeof(*t));
}

const struct pcb_topo_cpu *pcb_topo_cpu(const struct pcb_topo *t, unsigned int os)
{
	for (int i = 0; i < t->nr_cpus; i++)
		if (t->cpu[i].os == os)
			return &t->cpu[i];
	return NULL;
}

void pcb_cpuset_format(hwloc_const_bitmap_t set, char *buf, size_t len)
{
	if (hwloc_bitmap_iszero(set))
		snprintf(buf, len, "none");
	else
		hwloc_bitmap_list_snprintf(buf, len, set);
}

char *pcb_cpuset_string(hwloc_const_bitmap_t set)
{
	char *s = NULL;

	if (hwloc_bitmap_iszero(set))
		return strdup("none");
	return hwloc_bitmap_list_asprintf(&s, set) < 0 ? NULL : s;
}

static int parse_uint(const char *s, const char **end, unsigned int *out)
{
	unsigned long v;

	if (pcb_cpu_number(s, end, &v) < 0 || v > 1u << 20)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/*
 * One term, without its '!', into set. Removing a CPU that is not here is
 * harmless (`all,!0` in a container without CPU 0), so `lenient` lets it be.
 */
static int parse_term(const struct pcb_topo *t, const char *term, hwloc_bitmap_t set,
		      int lenient, char *err, size_t errlen)
{
	const char *end;
	unsigned int a, b;
	char avail[256];

	hwloc_bitmap_zero(set);
	if (!strcmp(term, "all")) {
		hwloc_bitmap_copy(set, t->all);
		return 0;
	}
	if (!strcmp(term, "isolated")) {
		hwloc_bitmap_copy(set, t->isolated);
		return 0;
	}
	if (!strcmp(term, "housekeeping")) {
		hwloc_bitmap_andnot(set, t->all, t->isolated);
		return 0;
	}
	if (!strncmp(term, "node:", 5)) {
		if (parse_uint(term + 5, &end, &a) < 0 || *end) {
			snprintf(err, errlen, "'%s': node:N takes a node number", term);
			return -1;
		}
		for (int i = 0; i < t->nr_nodes; i++)
			if (t->node[i].os == a) {
				hwloc_bitmap_and(set, t->node[i].cpus, t->all);
				return 0;
			}
		snprintf(err, errlen, "'%s': no NUMA node %u here (%d node%s)", term, a,
			 t->nr_nodes, t->nr_nodes == 1 ? "" : "s");
		return -1;
	}
	if (parse_uint(term, &end, &a) < 0) {
		snprintf(err, errlen, "'%s': expected all, node:N, isolated, housekeeping, "
			 "a CPU number or a range N-M", term);
		return -1;
	}
	b = a;
	if (*end == '-' && parse_uint(end + 1, &end, &b) < 0) {
		snprintf(err, errlen, "'%s': a range is N-M", term);
		return -1;
	}
	if (*end || b < a) {
		snprintf(err, errlen, "'%s': not a CPU number or range N-M with N <= M", term);
		return -1;
	}
	for (unsigned int c = a; c <= b; c++) {
		if (!hwloc_bitmap_isset(t->all, c) && lenient)
			continue;
		if (!hwloc_bitmap_isset(t->all, c)) {
			pcb_cpuset_format(t->all, avail, sizeof(avail));
			snprintf(err, errlen, "'%s': CPU %u is not here (CPUs %s)", term, c, avail);
			return -1;
		}
		hwloc_bitmap_set(set, c);
	}
	return 0;
}

int pcb_cpuset_parse(const struct pcb_topo *t, const char *expr, hwloc_bitmap_t out,
		     char *err, size_t errlen)
{
	char *copy = strdup(expr), *save = NULL, *tok;
	hwloc_bitmap_t term = hwloc_bitmap_alloc();
	int rc = 0, nterms = 0;

	hwloc_bitmap_zero(out);
	if (!copy || !term) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int neg;
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (!*tok)
			continue;
		neg = *tok == '!';
		if (neg)
			tok++;
		if (parse_term(t, tok, term, neg, err, errlen) < 0) {
			rc = -1;
			goto out;
		}
		if (neg)
			hwloc_bitmap_andnot(out, out, term);
		else
			hwloc_bitmap_or(out, out, term);
		nterms++;
	}
	if (!nterms) {
		snprintf(err, errlen, "empty CPU set expression");
		rc = -1;
	}
out:
	free(copy);
	hwloc_bitmap_free(term);
	return rc;
}

int pcb_topo_set_isolated(struct pcb_topo *t, const char *expr, char *err, size_t errlen)
{
	if (!strcmp(expr, "sysfs")) {
		/* a fixture tree stands for the machine: its list, on any topology */
		if (t->synthetic && !has_sysroot()) {
			hwloc_bitmap_zero(t->isolated);
			snprintf(t->isolated_source, sizeof(t->isolated_source),
				 "synthetic topology: none unless the scenario names them");
			return 0;
		}
		read_sysfs_list("sys/devices/system/cpu/isolated", t->isolated,
				t->isolated_source, sizeof(t->isolated_source));
		hwloc_bitmap_and(t->isolated, t->isolated, t->all);
		return 0;
	}
	if (!strcmp(expr, "none")) {
		hwloc_bitmap_zero(t->isolated);
		snprintf(t->isolated_source, sizeof(t->isolated_source), "none");
		return 0;
	}
	if (strstr(expr, "isolated") || strstr(expr, "housekeeping")) {
		snprintf(err, errlen, "'%s': the isolated set cannot refer to itself", expr);
		return -1;
	}
	hwloc_bitmap_t set = hwloc_bitmap_alloc();

	if (pcb_cpuset_parse(t, expr, set, err, errlen) < 0) {
		hwloc_bitmap_free(set);
		return -1;
	}
	hwloc_bitmap_copy(t->isolated, set);
	hwloc_bitmap_free(set);
	snprintf(t->isolated_source, sizeof(t->isolated_source), "scenario");
	return 0;
}

int pcb_topo_pin(const struct pcb_topo *t, unsigned int os)
{
	hwloc_bitmap_t set;
	int rc;

	if (t->synthetic)
		return -ENOTSUP;
	set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, os);
	rc = hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
	if (rc < 0)	/* STRICT is not supported everywhere */
		rc = hwloc_set_cpubind(t->hw, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
	return rc < 0 ? -errno : 0;
}

static size_t page_round(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) & ~(page - 1);
}

/* like numa_alloc_onnode(): anonymous pages bound to the node before first touch */
void *pcb_alloc_on_node(size_t size, int node)
{
	size_t len = page_round(size);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (node >= 0 && numa_available() >= 0 && node <= numa_max_node()) {
		unsigned long mask[16] = { 0 };

		if ((size_t)node < sizeof(mask) * 8) {
			mask[node / (8 * sizeof(long))] |= 1UL << (node % (8 * sizeof(long)));
			/* best effort, as numa_alloc_onnode(): a failure leaves the default policy */
			(void)mbind(p, len, MPOL_BIND, mask, sizeof(mask) * 8, 0);
		}
	}
	return p;
}

/* the calling thread's new pages from node first (MPOL_PREFERRED), or the default policy */
int pcb_prefer_node(int node)
{
	unsigned long mask[16] = { 0 };

	if (numa_available() < 0 || node > numa_max_node() || node >= (int)sizeof(mask) * 8)
		return -ENOTSUP;
	if (node < 0)
		return set_mempolicy(MPOL_DEFAULT, NULL, 0) < 0 ? -errno : 0;
	mask[node / (8 * sizeof(long))] |= 1UL << (node % (8 * sizeof(long)));
	return set_mempolicy(MPOL_PREFERRED, mask, sizeof(mask) * 8) < 0 ? -errno : 0;
}

void pcb_free_on_node(void *p, size_t size)
{
	if (p)
		munmap(p, page_round(size));
}

int pcb_node_of_addr(void *p)
{
	int status = -1;

	if (numa_available() < 0 || move_pages(0, 1, &p, NULL, &status, 0) < 0)
		return -1;
	return status < 0 ? -1 : status;
}
