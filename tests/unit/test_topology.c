/* SPDX-License-Identifier: MIT */
/*
 * CPU sets on synthetic topologies: 8 nodes x 16 CPUs, and seed 000's EPYC 7601;
 * the kernel's CPU lists as sysfs and the command line give them.
 */
#include <string.h>

#include "testing.h"
#include "../../harness/machine/topo.h"

static struct pcb_topo topo;

static void expect_set(const char *expr, const char *want)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char err[256] = "", got[1024] = "";

	if (pcb_cpuset_parse(&topo, expr, set, err, sizeof(err)) < 0)
		snprintf(got, sizeof(got), "error: %s", err);
	else
		pcb_cpuset_format(set, got, sizeof(got));
	CHECK(!strcmp(got, want), "'%s' gave '%s', expected '%s'", expr, got, want);
	hwloc_bitmap_free(set);
}

static void expect_error(const char *expr, const char *want)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char err[256] = "";
	int rc = pcb_cpuset_parse(&topo, expr, set, err, sizeof(err));

	CHECK(rc < 0 && strstr(err, want), "'%s': rc %d, message '%s', expected '%s'", expr, rc,
	      err, want);
	hwloc_bitmap_free(set);
}

/* pcb_cpulist_parse() of text: the list it reads, or "error: " and why */
static void expect_list(const char *text, const char *want)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	char why[160] = "", got[256] = "";

	if (pcb_cpulist_parse(text, set, why, sizeof(why)) < 0) {
		snprintf(got, sizeof(got), "error: %s", why);
		CHECK(hwloc_bitmap_iszero(set), "'%s' refused, its set not empty", text);
	} else {
		pcb_cpuset_format(set, got, sizeof(got));
	}
	CHECK(!strncmp(got, want, strlen(want)), "list '%s' gave '%s', expected '%s'", text, got,
	      want);
	hwloc_bitmap_free(set);
}

static void check_cpulists(void)
{
	expect_list("0-3,8", "0-3,8");
	expect_list("5", "5");
	expect_list("", "none");
	expect_list("0-8191", "0-8191");
	expect_list("0-8192", "error: CPU 8192 is past the 8192");
	expect_list("0-2147483647", "error: CPU 2147483647 is past the 8192");
	expect_list("99999999999999999999999", "error: CPU 18446744073709551615 is past");
	expect_list("3-1", "error: not a CPU list");
	expect_list("0-", "error: not a CPU list");
	expect_list("1,", "error: not a CPU list");
	expect_list("1,,2", "error: not a CPU list");
	expect_list("-1", "error: not a CPU list");
	expect_list("1 2", "error: not a CPU list");
}

int main(void)
{
	char err[256], buf[256];

	CHECK(pcb_topo_load(&topo, "numa:8 core:16 pu:1", err, sizeof(err)) == 0, "%s", err);
	CHECK(topo.synthetic, "a synthetic topology is not this machine");
	CHECK(topo.nr_nodes == 8 && topo.nr_cpus == 128 && topo.nr_cores == 128,
	      "%d nodes, %d cpus, %d cores", topo.nr_nodes, topo.nr_cpus, topo.nr_cores);
	CHECK(pcb_topo_pin(&topo, 0) < 0, "no pinning on a synthetic topology");
	CHECK(hwloc_bitmap_iszero(topo.isolated), "no isolated CPUs from sysfs when synthetic");

	expect_set("all", "0-127");
	expect_set("node:3", "48-63");
	expect_set("node:7", "112-127");
	expect_set("housekeeping", "0-127");
	expect_set("isolated", "none");
	expect_set("all,!0", "1-127");
	expect_set("all,!node:0", "16-127");
	expect_set("1,3-5", "1,3-5");
	expect_set(" node:1 , 100 ", "16-31,100");
	expect_set("node:2,!40-47", "32-39");

	CHECK(pcb_topo_set_isolated(&topo, "8-15,72-79", err, sizeof(err)) == 0, "%s", err);
	expect_set("isolated", "8-15,72-79");
	expect_set("housekeeping", "0-7,16-71,80-127");
	expect_set("node:0,!isolated", "0-7");
	CHECK(pcb_topo_set_isolated(&topo, "housekeeping", err, sizeof(err)) < 0,
	      "the isolated set cannot refer to itself");
	CHECK(pcb_topo_set_isolated(&topo, "none", err, sizeof(err)) == 0, "none");
	expect_set("isolated", "none");

	expect_error("node:8", "no NUMA node 8");
	expect_error("128", "CPU 128 is not here (CPUs 0-127)");
	expect_set("all,!500", "0-127");	/* removing an absent CPU is harmless */
	expect_error("5-3", "N <= M");
	expect_error("bogus", "expected all, node:N");
	expect_error("node:x", "node:N takes a node number");
	expect_error("", "empty CPU set");
	expect_error(",,", "empty CPU set");

	CHECK(pcb_topo_cpu(&topo, 77) && pcb_topo_cpu(&topo, 77)->node == 4, "CPU 77 on node 4");
	pcb_topo_destroy(&topo);

	/* seed 000's machine: 0-7,64-71 on node0, 8-15,72-79 on node1, and so on */
	{
		char spec[2048];
		size_t n;

		n = (size_t)snprintf(spec, sizeof(spec), "numa:8 core:8 pu:2(indexes=");
		for (int node = 0; node < 8; node++)
			for (int core = 0; core < 8; core++)
				n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%s%d,%d",
						      node || core ? "," : "", node * 8 + core,
						      64 + node * 8 + core);
		snprintf(spec + n, sizeof(spec) - n, ")");
		CHECK(pcb_topo_load(&topo, spec, err, sizeof(err)) == 0, "%s", err);
		CHECK(topo.nr_cpus == 128 && topo.nr_cores == 64, "%d cpus %d cores", topo.nr_cpus,
		      topo.nr_cores);
		expect_set("node:0", "0-7,64-71");
		expect_set("node:1", "8-15,72-79");
		CHECK(pcb_topo_set_isolated(&topo, "8-15,72-79", err, sizeof(err)) == 0, "%s", err);
		expect_set("isolated", "8-15,72-79");
		expect_set("node:1,!isolated", "none");
		pcb_cpuset_format(topo.node[7].cpus, buf, sizeof(buf));
		CHECK(!strcmp(buf, "56-63,120-127"), "node 7: %s", buf);
		pcb_topo_destroy(&topo);
	}

	CHECK(pcb_topo_load(&topo, "not a topology ::", err, sizeof(err)) < 0 &&
	      strstr(err, "neither a readable hwloc XML file"), "bad spec: %s", err);
	check_cpulists();
	return check_summary();
}
