/* SPDX-License-Identifier: MIT */
/*
 * The machine's state read from fixture trees (tests/fixtures/machine/):
 * a tuned bare-metal box (performance, boost off, CPUs 2-3 isolated, SMT
 * pairs 0,2 and 1,3), a laptop (intel_pstate powersave, turbo on, one
 * core of two threads), a VM (no cpufreq, no boost, no SMT, no PMU) and
 * a busy VM (load average 11 on 2 CPUs, a worker's CPU busy, steal) and
 * User-mode Linux on that VM (its cpuinfo, scripts/vm.sh's command line).
 * Nothing
 * here reads this machine: the root is a fixture, and PCPBENCH_HYPERVISOR
 * stands in for CPUID.
 */
#include <stdlib.h>
#include <string.h>

#include "testing.h"
#include "../../harness/machine/state.h"

static char root[PATH_MAX];

/* the state of fixture name for the workers in list, ASLR as given, TSC step as given */
static int load(struct pcb_state *st, const char *name, const char *list, const char *aslr,
		uint64_t step)
{
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_state_opts o = { .root = root, .workers = workers, .aslr = aslr,
				    .tsc_step = step };
	char err[512] = "";
	int rc;

	snprintf(root, sizeof(root), "%s/tests/fixtures/machine/%s", getenv("PCB_SRC"), name);
	hwloc_bitmap_list_sscanf(workers, list);
	rc = pcb_state_read(st, &o, err, sizeof(err));
	CHECK(rc == 0, "%s: %s", name, err);
	hwloc_bitmap_free(workers);
	return rc;
}

/* setting's item for cpu has value and verdict */
static void expect(const struct pcb_state *st, const char *setting, int cpu, const char *value,
		   enum pcb_state_verdict v)
{
	const struct pcb_state_item *it = pcb_state_find(st, setting, cpu);

	CHECK(it != NULL, "%s of CPU %d: no item", setting, cpu);
	if (!it)
		return;
	CHECK(!strcmp(it->value, value), "%s of CPU %d: '%s', expected '%s'", setting, cpu,
	      it->value, value);
	CHECK(it->verdict == v, "%s of CPU %d: %s, expected %s", setting, cpu,
	      pcb_state_verdict_name(it->verdict), pcb_state_verdict_name(v));
}

/* the CPUs of setting's item for cpu, as a list */
static void expect_cpus(const struct pcb_state *st, const char *setting, int cpu,
			const char *want)
{
	const struct pcb_state_item *it = pcb_state_find(st, setting, cpu);
	char got[256] = "none";

	if (it && it->cpus)
		hwloc_bitmap_list_snprintf(got, sizeof(got), it->cpus);
	CHECK(!strcmp(got, want), "%s of CPU %d is about CPU %s, expected %s", setting, cpu, got,
	      want);
}

static void test_tuned(void)
{
	struct pcb_state st;

	setenv("PCPBENCH_HYPERVISOR", "none", 1);
	if (load(&st, "tuned", "0-3", NULL, 1) < 0)
		return;
	expect(&st, "hypervisor", -1, "none", PCB_STATE_OK);
	expect(&st, "cpufreq.driver", 2, "acpi-cpufreq", PCB_STATE_OK);
	expect(&st, "cpufreq.governor", 3, "performance", PCB_STATE_OK);
	expect(&st, "cpufreq.min_max", 0, "2200000..3000000 kHz", PCB_STATE_OK);
	/* every worker agrees: one item, a CPU list */
	expect_cpus(&st, "cpufreq.governor", 1, "0-3");
	expect(&st, "boost", -1, "off", PCB_STATE_OK);
	/* every worker's sibling is a worker */
	expect(&st, "smt", 0, "a sibling is a worker", PCB_STATE_BAD);
	expect(&st, "isolation", 2, "isolcpus, nohz_full, rcu_nocbs", PCB_STATE_OK);
	/* "-- isolcpus=0" is init's, not the kernel's */
	expect(&st, "isolation", 0, "none", PCB_STATE_OK);
	expect_cpus(&st, "isolation", 3, "2-3");
	expect(&st, "aslr", -1, "off (randomize_va_space 0)", PCB_STATE_OK);
	expect(&st, "thp", -1, "never", PCB_STATE_OK);
	expect(&st, "perf_event_paranoid", -1, "-1", PCB_STATE_OK);
	expect(&st, "pmu", -1, "cpu", PCB_STATE_OK);
	expect(&st, "tsc_step", -1, "1 cycle", PCB_STATE_OK);
	/* a fixture's /proc/stat since boot: 152 of 2654 ticks busy, no steal */
	expect(&st, "load", 3, "idle", PCB_STATE_OK);
	expect_cpus(&st, "load", 0, "0-3");
	expect(&st, "steal", 1, "0%", PCB_STATE_OK);
	/* every CPU a worker's: load 0.10 must run on one of them, but less than a CPU's worth */
	expect(&st, "runnable", -1, "load average 0.10 on 4 CPUs", PCB_STATE_NOTE);
	CHECK(pcb_state_nr_bad(&st) == 1, "%d bad, expected the SMT one", pcb_state_nr_bad(&st));
	pcb_state_free(&st);

	/* the isolated pair's siblings are no workers: a fixture's /proc/stat is not sampled */
	if (load(&st, "tuned", "2-3", NULL, 0) < 0)
		return;
	expect(&st, "smt", 2, "siblings not sampled", PCB_STATE_UNKNOWN);
	CHECK(pcb_state_find(&st, "tsc_step", -1) == NULL, "a step not measured is no item");
	CHECK(pcb_state_nr_bad(&st) == 0, "%d bad", pcb_state_nr_bad(&st));
	pcb_state_free(&st);
}

static void test_laptop(void)
{
	struct pcb_state st;

	setenv("PCPBENCH_HYPERVISOR", "none", 1);
	if (load(&st, "laptop", "1", NULL, 20) < 0)
		return;
	expect(&st, "cpufreq.driver", 1, "intel_pstate", PCB_STATE_OK);
	expect(&st, "cpufreq.governor", 1, "powersave", PCB_STATE_BAD);
	expect(&st, "cpufreq.min_max", 1, "400000..4700000 kHz", PCB_STATE_OK);
	/* intel_pstate's no_turbo = 0 */
	expect(&st, "boost", -1, "on", PCB_STATE_BAD);
	expect(&st, "thp", -1, "always", PCB_STATE_NOTE);
	expect(&st, "perf_event_paranoid", -1, "4", PCB_STATE_NOTE);
	/* a fixture is not this machine: personality is not tried, run would re-execute */
	expect(&st, "aslr", -1, "on (randomize_va_space 2)", PCB_STATE_NOTE);
	expect(&st, "tsc_step", -1, "20 cycles", PCB_STATE_NOTE);
	/* a hybrid's core PMU */
	expect(&st, "pmu", -1, "cpu_core", PCB_STATE_OK);
	/* 1785 of 21885 ticks: 8% */
	expect(&st, "load", 1, "idle", PCB_STATE_OK);
	/* procs_running 2: pcpbench and one more, for the CPU that runs no worker */
	expect(&st, "runnable", -1, "1 task(s) runnable beside pcpbench, load average 0.62 on 2 "
	       "CPUs", PCB_STATE_OK);
	CHECK(pcb_state_nr_bad(&st) == 2, "%d bad, expected governor and boost",
	      pcb_state_nr_bad(&st));
	pcb_state_free(&st);

	/* both threads of the core are workers; the process kept ASLR */
	if (load(&st, "laptop", "0-1", "kept (--keep-aslr)", 0) < 0)
		return;
	expect(&st, "smt", 0, "a sibling is a worker", PCB_STATE_BAD);
	expect(&st, "aslr", -1, "on (randomize_va_space 2)", PCB_STATE_BAD);
	/* no CPU left without a worker: the other runnable task runs on one of theirs */
	expect(&st, "runnable", -1, "1 task(s) runnable beside pcpbench, load average 0.62 on 2 "
	       "CPUs", PCB_STATE_BAD);
	CHECK(pcb_state_nr_bad(&st) == 5, "%d bad", pcb_state_nr_bad(&st));
	pcb_state_free(&st);

	if (load(&st, "laptop", "1", "disabled by re-exec", 0) < 0)
		return;
	expect(&st, "aslr", -1, "on (randomize_va_space 2)", PCB_STATE_OK);
	pcb_state_free(&st);
}

static void test_vm(void)
{
	const struct pcb_state_item *it;
	struct pcb_state st;

	setenv("PCPBENCH_HYPERVISOR", "KVMKVMKVM", 1);
	if (load(&st, "vm", "0-1", NULL, 1) < 0)
		return;
	expect(&st, "hypervisor", -1, "KVMKVMKVM", PCB_STATE_NOTE);
	expect(&st, "cpufreq.driver", 0, "absent", PCB_STATE_UNKNOWN);
	expect(&st, "cpufreq.governor", 1, "absent", PCB_STATE_UNKNOWN);
	expect(&st, "cpufreq.min_max", 1, "absent", PCB_STATE_UNKNOWN);
	it = pcb_state_find(&st, "cpufreq.governor", 1);
	CHECK(it && strstr(it->note, "/sys/devices/system/cpu/cpuN/cpufreq"),
	      "an absent cpufreq is named: '%s'", it ? it->note : "");
	expect_cpus(&st, "cpufreq.driver", 0, "0-1");
	expect(&st, "boost", -1, "absent", PCB_STATE_UNKNOWN);
	expect(&st, "smt", 1, "no sibling", PCB_STATE_OK);
	expect(&st, "isolation", 0, "none", PCB_STATE_OK);
	expect(&st, "thp", -1, "madvise", PCB_STATE_OK);
	expect(&st, "perf_event_paranoid", -1, "2", PCB_STATE_NOTE);
	/* no PMU: said so, and paranoid no longer blamed for the hardware events */
	expect(&st, "pmu", -1, "none", PCB_STATE_NOTE);
	it = pcb_state_find(&st, "perf_event_paranoid", -1);
	CHECK(it && strstr(it->note, "no PMU"), "paranoid's note: '%s'", it ? it->note : "");
	/* no /proc/stat nor /proc/loadavg: unknown, never an error */
	expect(&st, "runnable", -1, "absent", PCB_STATE_UNKNOWN);
	CHECK(pcb_state_nr_bad(&st) == 0, "%d bad", pcb_state_nr_bad(&st));
	pcb_state_free(&st);

	/* the busy VM: load average 11 on 2 CPUs, 12 runnable, CPU 1 59% busy, 4% stolen */
	if (load(&st, "busy", "1", NULL, 1) < 0)
		return;
	expect(&st, "load", 1, "59% busy", PCB_STATE_BAD);
	expect(&st, "steal", 1, "4%", PCB_STATE_BAD);
	expect(&st, "runnable", -1, "11 task(s) runnable beside pcpbench, load average 11.02 on "
	       "2 CPUs", PCB_STATE_BAD);
	CHECK(pcb_state_nr_bad(&st) == 3, "%d bad, expected load, steal and runnable",
	      pcb_state_nr_bad(&st));
	pcb_state_free(&st);

	/* the same VM under QEMU's TCG: an emulated CPU, no timer of cycles */
	setenv("PCPBENCH_HYPERVISOR", "TCGTCGTCGTCG", 1);
	if (load(&st, "vm", "0-1", NULL, 1) < 0)
		return;
	expect(&st, "hypervisor", -1, "TCGTCGTCGTCG, emulated", PCB_STATE_BAD);
	it = pcb_state_find(&st, "hypervisor", -1);
	CHECK(it && strstr(it->note, "figures are functional, never timings"), "'%s'",
	      it ? it->note : "");
	CHECK(pcb_state_nr_bad(&st) == 1, "%d bad", pcb_state_nr_bad(&st));
	CHECK(pcb_state_emulated("TCGTCGTCGTCG (QEMU TCG)") && !pcb_state_emulated("KVMKVMKVM") &&
	      !pcb_state_emulated("none"), "emulated vendors");
	pcb_state_free(&st);
}

/* User-mode Linux: named by its cpuinfo, its host CPUs and pinning from the command line */
static void test_uml(void)
{
	const struct pcb_state_item *it;
	struct pcb_state st;

	setenv("PCPBENCH_HYPERVISOR", "KVMKVMKVM", 1);
	if (load(&st, "vm", "0-1", NULL, 1) < 0)
		return;
	CHECK(!strcmp(st.platform.name, "vm") && !*st.platform.host_cpus, "a VM's platform: %s",
	      st.platform.name);
	CHECK(!pcb_state_find(&st, "platform", -1), "no platform item on a VM");
	pcb_state_free(&st);
	if (load(&st, "uml", "0-1", NULL, 1) < 0)
		return;
	CHECK(!strcmp(st.platform.name, "uml"), "platform '%s'", st.platform.name);
	CHECK(!strcmp(st.platform.host_cpus, "0-1") && !strcmp(st.platform.pinning, "process"),
	      "host CPUs '%s', pinning '%s'", st.platform.host_cpus, st.platform.pinning);
	CHECK(strstr(st.platform.host, "6.1.0-44-cloud-amd64") == st.platform.host + 12,
	      "host '%s'", st.platform.host);
	expect(&st, "platform", -1, "uml, host CPUs 0-1, pinning process", PCB_STATE_NOTE);
	it = pcb_state_find(&st, "platform", -1);
	CHECK(it && !strncmp(it->note, "Linux build ", 12), "the host named: '%s'",
	      it ? it->note : "");
	CHECK(strstr(pcb_state_effect("platform"), "host process") != NULL, "the effect said");
	/* the host's hypervisor is CPUID's, read natively under UML */
	expect(&st, "hypervisor", -1, "KVMKVMKVM", PCB_STATE_NOTE);
	pcb_state_free(&st);
}

/* a period over the runs, its samples made by hand: steal on a worker CPU, the load average */
static void test_run_load(void)
{
	struct pcb_load_sample a = { .stat = "cpu1 100 0 0 100 0 0 0 10 0 0\n", .load1 = 1,
				     .running = 1 };
	struct pcb_load_sample b = { .stat = "cpu1 180 0 0 100 0 0 0 30 0 0\n", .load1 = 1.5,
				     .running = 1 };
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_load_period p = { .before = &a, .after = &b, .seconds = 2, .workers = workers,
				     .online = 2, .ours = 1, .run = 1 };
	struct pcb_state st;
	char err[256];

	hwloc_bitmap_set(workers, 1);
	/* 20 of 100 ticks stolen; a load of 1.5 with the worker's 1 in it: half a CPU's of others */
	CHECK(pcb_state_init(&st, "/", err, sizeof(err)) == 0, "%s", err);
	pcb_state_load_items(&st, &p);
	expect(&st, "run.steal", 1, "20%", PCB_STATE_BAD);
	expect(&st, "run.load", -1, "load average 1.50 on 2 CPUs", PCB_STATE_OK);
	CHECK(pcb_state_find(&st, "load", 1) == NULL, "no busy share of a worker's own CPU");
	pcb_state_free(&st);
	/* others' load 2.3 against the 1 CPU without a worker: a CPU's worth on the worker's */
	b.load1 = 3.3;
	CHECK(pcb_state_init(&st, "/", err, sizeof(err)) == 0, "%s", err);
	pcb_state_load_items(&st, &p);
	expect(&st, "run.load", -1, "load average 3.30 on 2 CPUs", PCB_STATE_BAD);
	pcb_state_free(&st);
	b.load1 = 2.5;
	CHECK(pcb_state_init(&st, "/", err, sizeof(err)) == 0, "%s", err);
	pcb_state_load_items(&st, &p);
	expect(&st, "run.load", -1, "load average 2.50 on 2 CPUs", PCB_STATE_NOTE);
	pcb_state_free(&st);
	hwloc_bitmap_free(workers);
}

static void test_busy(void)
{
	static const char before[] =
		"cpu  10 0 10 100 0 0 0 0 0 0\n"
		"cpu0 5 0 5 50 0 0 0 0 0 0\n"
		"cpu1 5 0 5 50 0 0 0 0 0 0\n"
		"cpu12 0 0 0 10 0 0 0 0 0 0\n"
		"intr 1 2 3\n";
	/* cpu0: 30 of 40 ticks busy; cpu1: 1 of 20, 10 of steal left out; cpu12: no tick */
	static const char after[] =
		"cpu  40 0 20 130 0 0 0 0 0 0\n"
		"cpu0 25 0 10 60 0 0 5 0 0 0\n"
		"cpu1 6 0 5 65 4 0 0 10 0 0\n"
		"cpu12 0 0 0 10 0 0 0 0 0 0\n"
		"intr 1 2 3\n";

	CHECK(pcb_state_busy_pct(before, after, 0) == 75, "cpu0 %d%%",
	      pcb_state_busy_pct(before, after, 0));
	CHECK(pcb_state_busy_pct(before, after, 1) == 5, "cpu1 %d%%",
	      pcb_state_busy_pct(before, after, 1));
	CHECK(pcb_state_busy_pct(before, after, 12) == -1, "cpu12: no tick");
	CHECK(pcb_state_busy_pct(before, after, 2) == -1, "cpu2: absent");
	/* steal: cpu1's 10 of 30 ticks; since boot (no text before) none of cpu0's */
	CHECK(pcb_state_steal_pct(before, after, 1) == 33, "cpu1 steal %d%%",
	      pcb_state_steal_pct(before, after, 1));
	CHECK(pcb_state_steal_pct(NULL, after, 0) == 0, "cpu0 steal since boot");
	CHECK(pcb_state_busy_pct(NULL, after, 0) == 40, "cpu0 busy since boot %d%%",
	      pcb_state_busy_pct(NULL, after, 0));
	CHECK(pcb_state_stat_cpus(after) == 3, "three CPU lines");
	/* "cpu1" is not "cpu12" */
	CHECK(pcb_state_busy_pct("cpu12 1 1 1 1\n", "cpu12 2 2 2 2\n", 1) == -1, "cpu1 vs cpu12");
}

static void test_root(void)
{
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_state_opts o = { .root = "/nonexistent/pcpbench-root", .workers = workers };
	struct pcb_state st;
	char err[512] = "", buf[64];

	hwloc_bitmap_set(workers, 0);
	CHECK(pcb_state_read(&st, &o, err, sizeof(err)) < 0, "a missing root is an error");
	CHECK(strstr(err, "/nonexistent/pcpbench-root") && strstr(err, "not a directory"),
	      "'%s'", err);
	hwloc_bitmap_free(workers);
	setenv("PCPBENCH_HYPERVISOR", "none", 1);
	CHECK(pcb_state_hypervisor(buf, sizeof(buf)) == 0 && !strcmp(buf, "none"), "%s", buf);
}

int main(void)
{
	if (!getenv("PCB_SRC")) {
		fprintf(stderr, "PCB_SRC: the source tree, for its fixtures\n");
		return 1;
	}
	test_tuned();
	test_laptop();
	test_vm();
	test_busy();
	test_uml();
	test_run_load();
	test_root();
	return check_summary();
}
