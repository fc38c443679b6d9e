/* SPDX-License-Identifier: MIT */
#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aslr.h"
#include "state.h"

/* what each setting does to a figure; docs/measurement.md says the same */
static const struct {
	const char *setting, *effect;
} effects[] = {
	{ "hypervisor", "in a VM an IPI, the wake of an idle vCPU and the timer are VM exits: "
	  "drain and wake figures are the host's as much as the model's" },
	{ "cpufreq.driver", "what sets the frequency (intel_pstate, amd-pstate, acpi-cpufreq); "
	  "absent: the host or the firmware, unseen from here" },
	{ "cpufreq.governor", "figures are TSC ticks, which do not follow the core clock: a "
	  "governor that moves the frequency (any but performance, unless min = max) moves "
	  "every figure with the load" },
	{ "cpufreq.min_max", "the range the governor moves the frequency in; min = max holds it" },
	{ "boost", "turbo raises the clock by temperature and by how many cores are busy: a "
	  "figure moves with the other CPUs' load and from one run to the next" },
	{ "smt", "a worker whose SMT sibling runs shares its core's pipelines, L1 and L2: its "
	  "figures rise by what the sibling does" },
	{ "isolation", "isolcpus, nohz_full and rcu_nocbs keep other tasks, the tick and RCU "
	  "callbacks off a worker: fewer interruptions; designs that skip cpu_is_isolated() "
	  "CPUs drain them differently" },
	{ "aslr", "where the binary, stacks and heap are mapped moves small figures by a cycle "
	  "or more from one invocation to the next; run re-executes itself without it" },
	{ "thp", "always: a large mapping may fault in huge pages, and the page allocator "
	  "model's page-fault and munmap figures then count fewer, larger faults" },
	{ "perf_event_paranoid", "2: hardware counters count user mode only (counters.kernel "
	  "is dropped); 3 or more: a user opens no counters, which print <not supported>" },
	{ "tsc_step", "the TSC's resolution: above 1 tick (some VMs) a short region reads as "
	  "one step or the next; a mean below a step prints as ~x.xx" },
};

const char *pcb_state_effect(const char *setting)
{
	for (size_t i = 0; i < sizeof(effects) / sizeof(effects[0]); i++)
		if (!strcmp(effects[i].setting, setting))
			return effects[i].effect;
	return "";
}

const char *pcb_state_verdict_name(enum pcb_state_verdict v)
{
	static const char *const names[] = {
		[PCB_STATE_OK] = "ok", [PCB_STATE_NOTE] = "note",
		[PCB_STATE_UNKNOWN] = "unknown", [PCB_STATE_BAD] = "bad",
	};

	return names[v];
}

/* an item of setting about cpu (-1: the machine), merged with one of the same verdict and text */
static void add_item(struct pcb_state *st, const char *setting, int cpu,
		     enum pcb_state_verdict v, const char *value, const char *note)
{
	struct pcb_state_item *it;

	for (int i = 0; cpu >= 0 && i < st->nr; i++) {
		it = &st->item[i];
		if (it->cpus && it->verdict == v && !strcmp(it->setting, setting) &&
		    !strcmp(it->value, value) && !strcmp(it->note, note)) {
			hwloc_bitmap_set(it->cpus, (unsigned int)cpu);
			return;
		}
	}
	if (st->nr == st->room) {
		int room = st->room ? 2 * st->room : 16;
		struct pcb_state_item *n = realloc(st->item, (size_t)room * sizeof(*n));

		if (!n) {
			st->failed = 1;
			return;
		}
		st->item = n;
		st->room = room;
	}
	it = &st->item[st->nr];
	memset(it, 0, sizeof(*it));
	it->setting = setting;
	it->verdict = v;
	snprintf(it->value, sizeof(it->value), "%s", value);
	snprintf(it->note, sizeof(it->note), "%s", note);
	if (cpu >= 0) {
		it->cpus = hwloc_bitmap_alloc();
		if (!it->cpus) {
			st->failed = 1;
			return;
		}
		hwloc_bitmap_set(it->cpus, (unsigned int)cpu);
	}
	st->nr++;
}

/* the file rel under the root, its trailing blanks cut: 0, or -errno */
static int read_text(const struct pcb_state *st, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX + 256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", st->root, rel);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return 0;
}

/* a number in the file rel: 0, or -1 with note naming the file and what is wrong */
static int read_long(const struct pcb_state *st, const char *rel, long *v, char *note,
		     size_t len)
{
	char buf[64], *end;
	int rc = read_text(st, rel, buf, sizeof(buf));

	if (rc < 0) {
		snprintf(note, len, "%s%s: %s", st->root, rel, strerror(-rc));
		return -1;
	}
	errno = 0;
	*v = strtol(buf, &end, 10);
	if (!*buf || *end || errno) {
		snprintf(note, len, "%s%s: '%s' is not a number", st->root, rel, buf);
		return -1;
	}
	return 0;
}

static int is_dir(const struct pcb_state *st, const char *rel)
{
	char path[PATH_MAX + 256];
	struct stat sb;

	snprintf(path, sizeof(path), "%s%s", st->root, rel);
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* the whole of a file that may be long (/proc/stat), NULL if it cannot be read */
static char *read_all(const struct pcb_state *st, const char *rel)
{
	char path[PATH_MAX + 256], *buf = NULL;
	size_t n = 0, room = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", st->root, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		size_t got;
		char *nb;

		if (n + 4096 + 1 > room) {
			room = room ? 2 * room : 16384;
			nb = realloc(buf, room);
			if (!nb)
				break;
			buf = nb;
		}
		got = fread(buf + n, 1, room - n - 1, f);
		n += got;
		if (!got)
			break;
	}
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

int pcb_state_hypervisor(char *buf, size_t len)
{
	static const char *const known[][2] = {
		{ "KVMKVMKVM", "KVM" }, { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" }, { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "ACRN" },
	};
	const char *env = getenv("PCPBENCH_HYPERVISOR"), *name = NULL;
	unsigned int a, b, c, d;
	char v[13];

	if (env && *env) {
		snprintf(buf, len, "%s", strcmp(env, "none") ? env : "none");
		return strcmp(env, "none") != 0;
	}
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31))) {
		snprintf(buf, len, "none");
		return 0;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(v, &b, 4);
	memcpy(v + 4, &c, 4);
	memcpy(v + 8, &d, 4);
	v[12] = 0;
	for (int i = 0; v[i]; i++)
		if (!isprint((unsigned char)v[i]))
			v[i] = '?';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(v, known[i][0]))
			name = known[i][1];
	for (int i = 11; i >= 0 && v[i] == ' '; i--)
		v[i] = 0;
	snprintf(buf, len, "%s%s%s%s", *v ? v : "unnamed", name ? " (" : "", name ? name : "",
		 name ? ")" : "");
	return 1;
}

static void read_hypervisor(struct pcb_state *st)
{
	char vendor[64], note[128];
	int hv = pcb_state_hypervisor(vendor, sizeof(vendor));
	const char *env = getenv("PCPBENCH_HYPERVISOR");

	snprintf(note, sizeof(note), "%s", env && *env ? "PCPBENCH_HYPERVISOR" :
		 hv ? "CPUID: hypervisor bit set, vendor leaf 0x40000000" :
		 "CPUID: hypervisor bit clear");
	add_item(st, "hypervisor", -1, hv ? PCB_STATE_NOTE : PCB_STATE_OK, vendor, note);
}

/* a worker without cpufreq: every cpufreq item unknown, saying so */
static void no_cpufreq(struct pcb_state *st, int cpu)
{
	static const char *const settings[] = {
		"cpufreq.driver", "cpufreq.governor", "cpufreq.min_max",
	};
	char note[320];

	snprintf(note, sizeof(note), "no %ssys/devices/system/cpu/cpuN/cpufreq: the host or "
		 "the firmware sets the frequency (a VM has none)", st->root);
	for (int i = 0; i < 3; i++)
		add_item(st, settings[i], cpu, PCB_STATE_UNKNOWN, "absent", note);
}

/* the governor's verdict: it holds the frequency, or min = max holds it for it */
static void governor_item(struct pcb_state *st, int cpu, const char *gov, long min, long max)
{
	char value[192], note[320];
	enum pcb_state_verdict v = PCB_STATE_BAD;

	snprintf(value, sizeof(value), "%s", gov);
	if (!strcmp(gov, "performance")) {
		v = PCB_STATE_OK;
		snprintf(note, sizeof(note), "holds the highest frequency of the range");
	} else if (min > 0 && min == max) {
		v = PCB_STATE_OK;
		snprintf(note, sizeof(note), "min = max: the frequency is held");
	} else if (min > 0 && max > 0) {
		snprintf(note, sizeof(note), "min %ld != max %ld kHz: the governor moves the "
			 "frequency with the load (cpupower frequency-set -g performance)", min, max);
	} else {
		snprintf(note, sizeof(note), "the range is unknown: the governor may move the "
			 "frequency with the load");
	}
	add_item(st, "cpufreq.governor", cpu, v, value, note);
}

static void read_cpufreq_cpu(struct pcb_state *st, unsigned int cpu)
{
	char rel[128], dir[96], buf[64], note[320], value[192];
	long min = -1, max = -1;
	int lo, hi;

	snprintf(dir, sizeof(dir), "sys/devices/system/cpu/cpu%u/cpufreq", cpu);
	if (!is_dir(st, dir)) {
		no_cpufreq(st, (int)cpu);
		return;
	}
	snprintf(rel, sizeof(rel), "%s/scaling_driver", dir);
	if (read_text(st, rel, buf, sizeof(buf)) < 0)
		add_item(st, "cpufreq.driver", (int)cpu, PCB_STATE_UNKNOWN, "absent",
			 "no cpuN/cpufreq/scaling_driver");
	else
		add_item(st, "cpufreq.driver", (int)cpu, PCB_STATE_OK, buf, "");
	snprintf(rel, sizeof(rel), "%s/scaling_min_freq", dir);
	lo = read_long(st, rel, &min, note, sizeof(note));
	snprintf(rel, sizeof(rel), "%s/scaling_max_freq", dir);
	hi = lo < 0 ? -1 : read_long(st, rel, &max, note, sizeof(note));
	snprintf(rel, sizeof(rel), "%s/scaling_governor", dir);
	if (read_text(st, rel, buf, sizeof(buf)) < 0)
		add_item(st, "cpufreq.governor", (int)cpu, PCB_STATE_UNKNOWN, "absent",
			 "no cpuN/cpufreq/scaling_governor");
	else
		governor_item(st, (int)cpu, buf, lo < 0 || hi < 0 ? -1 : min,
			      lo < 0 || hi < 0 ? -1 : max);
	if (lo < 0 || hi < 0) {
		/* the note names cpuN's file: the same item for every CPU it is wrong on */
		add_item(st, "cpufreq.min_max", (int)cpu, PCB_STATE_UNKNOWN, "unreadable", note);
		return;
	}
	if (min == max)
		snprintf(value, sizeof(value), "%ld kHz (min = max)", min);
	else
		snprintf(value, sizeof(value), "%ld..%ld kHz", min, max);
	add_item(st, "cpufreq.min_max", (int)cpu, PCB_STATE_OK, value, "");
}

/* on or off from a file, the verdict and the note naming it */
static void boost_item(struct pcb_state *st, int cpu, int on, const char *rel, long v)
{
	char note[320];

	snprintf(note, sizeof(note), "%s%s = %ld", st->root, rel, v);
	add_item(st, "boost", cpu, on ? PCB_STATE_BAD : PCB_STATE_OK, on ? "on" : "off", note);
}

/*
 * cpufreq's global boost (acpi-cpufreq, amd-pstate), else intel_pstate's
 * no_turbo, else each policy's own boost (cpufreq_boost_set_sw() per policy)
 */
static void read_boost(struct pcb_state *st, hwloc_const_bitmap_t workers)
{
	static const char global[] = "sys/devices/system/cpu/cpufreq/boost";
	static const char no_turbo[] = "sys/devices/system/cpu/intel_pstate/no_turbo";
	char rel[128], note[320];
	unsigned int cpu;
	int found = 0;
	long v;

	if (read_long(st, global, &v, note, sizeof(note)) == 0) {
		boost_item(st, -1, v != 0, global, v);
		return;
	}
	if (read_long(st, no_turbo, &v, note, sizeof(note)) == 0) {
		boost_item(st, -1, v == 0, no_turbo, v);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, workers) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/boost", cpu);
		found |= read_long(st, rel, &v, note, sizeof(note)) == 0;
	} hwloc_bitmap_foreach_end();
	if (!found) {
		snprintf(note, sizeof(note), "none of %s%s, %s%s, cpuN/cpufreq/boost: the host or "
			 "the firmware decides", st->root, global, st->root, no_turbo);
		add_item(st, "boost", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, workers) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/boost", cpu);
		if (read_long(st, rel, &v, note, sizeof(note)) == 0)
			boost_item(st, (int)cpu, v != 0, "sys/devices/system/cpu/cpuN/cpufreq/boost",
				   v);
		else
			add_item(st, "boost", (int)cpu, PCB_STATE_UNKNOWN, "absent",
				 "no cpuN/cpufreq/boost");
	} hwloc_bitmap_foreach_end();
}

/* "cpuN a b c ..." of cpu in a /proc/stat text: the first 8 fields, 0 if absent */
static int stat_line(const char *text, unsigned int cpu, unsigned long long f[8])
{
	char tag[24];
	size_t n = (size_t)snprintf(tag, sizeof(tag), "cpu%u ", cpu);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, tag, n))
			continue;
		memset(f, 0, 8 * sizeof(f[0]));
		return sscanf(p + n, "%llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1],
			      &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]) >= 4;
	}
	return 0;
}

int pcb_state_busy_pct(const char *before, const char *after, unsigned int cpu)
{
	unsigned long long a[8], b[8], busy = 0, total = 0;

	if (!stat_line(before, cpu, a) || !stat_line(after, cpu, b))
		return -1;
	/* user nice system idle iowait irq softirq steal: steal is the host's, not the core's */
	for (int i = 0; i < 7; i++) {
		unsigned long long d = b[i] >= a[i] ? b[i] - a[i] : 0;

		total += d;
		if (i != 3 && i != 4)
			busy += d;
	}
	if (!total)
		return -1;
	return (int)(busy * 100 / total);
}

/* cpu's SMT siblings, itself left out, into sib: 0, or -1 with note */
static int siblings(const struct pcb_state *st, unsigned int cpu, hwloc_bitmap_t sib,
		    char *note, size_t len)
{
	char rel[128], buf[512];
	int rc;

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
		 cpu);
	rc = read_text(st, rel, buf, sizeof(buf));
	if (rc < 0 || hwloc_bitmap_list_sscanf(sib, buf) < 0) {
		snprintf(note, len, "%ssys/devices/system/cpu/cpuN/topology/thread_siblings_list: "
			 "%s", st->root, rc < 0 ? strerror(-rc) : "not a CPU list");
		return -1;
	}
	hwloc_bitmap_clr(sib, cpu);
	return 0;
}

/* two /proc/stat texts sample_ms apart, where siblings that are no workers may be busy */
static void sample_stat(const struct pcb_state *st, const struct pcb_state_opts *o,
			char **before, char **after)
{
	*before = *after = NULL;
	/* a fixture tree's /proc/stat does not move: only this machine's is sampled */
	if (strcmp(st->root, "/") || o->sample_ms <= 0)
		return;
	*before = read_all(st, "proc/stat");
	usleep((useconds_t)o->sample_ms * 1000);
	*after = read_all(st, "proc/stat");
}

/* a worker's siblings: none, a worker among them, or the busiest of the others */
static void smt_item(struct pcb_state *st, const struct pcb_state_opts *o, unsigned int cpu,
		     hwloc_const_bitmap_t sib, const char *const stat[2])
{
	unsigned int s;
	int busy = -1;
	char note[320];

	if (hwloc_bitmap_iszero(sib)) {
		add_item(st, "smt", (int)cpu, PCB_STATE_OK, "no sibling", "");
		return;
	}
	if (hwloc_bitmap_intersects(sib, o->workers)) {
		add_item(st, "smt", (int)cpu, PCB_STATE_BAD, "a sibling is a worker",
			 "two workers share a core: each one's figures include the other's work");
		return;
	}
	if (!stat[0] || !stat[1]) {
		add_item(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "siblings not sampled",
			 strcmp(st->root, "/") ? "the root is not this machine's: its /proc/stat "
			 "is not sampled" : "no /proc/stat sample");
		return;
	}
	hwloc_bitmap_foreach_begin(s, sib) {
		int pct = pcb_state_busy_pct(stat[0], stat[1], s);

		busy = pct > busy ? pct : busy;
	} hwloc_bitmap_foreach_end();
	snprintf(note, sizeof(note), "busiest sibling %d%% of its ticks over %d ms of /proc/stat",
		 busy, o->sample_ms);
	if (busy < 0)
		add_item(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "siblings not sampled",
			 "no tick of a sibling in the /proc/stat sample");
	else if (busy > PCB_STATE_BUSY_PCT)
		add_item(st, "smt", (int)cpu, PCB_STATE_BAD, "a sibling is busy", note);
	else
		add_item(st, "smt", (int)cpu, PCB_STATE_OK, "siblings idle", "");
}

static void read_smt(struct pcb_state *st, const struct pcb_state_opts *o)
{
	hwloc_bitmap_t sib = hwloc_bitmap_alloc(), others = hwloc_bitmap_alloc();
	char note[320], *stat[2] = { NULL, NULL };
	unsigned int cpu;

	if (!sib || !others) {
		st->failed = 1;
		goto out;
	}
	/* the siblings that are no workers: sampled once for every worker */
	hwloc_bitmap_foreach_begin(cpu, o->workers) {
		if (siblings(st, cpu, sib, note, sizeof(note)) == 0)
			hwloc_bitmap_or(others, others, sib);
	} hwloc_bitmap_foreach_end();
	hwloc_bitmap_andnot(others, others, o->workers);
	if (!hwloc_bitmap_iszero(others))
		sample_stat(st, o, &stat[0], &stat[1]);
	hwloc_bitmap_foreach_begin(cpu, o->workers) {
		if (siblings(st, cpu, sib, note, sizeof(note)) < 0)
			add_item(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "absent", note);
		else
			smt_item(st, o, cpu, sib, (const char *const *)stat);
	} hwloc_bitmap_foreach_end();
out:
	free(stat[0]);
	free(stat[1]);
	hwloc_bitmap_free(sib);
	hwloc_bitmap_free(others);
}

/* a CPU list of the kernel's command line into set ("all" is every CPU); -1 if unreadable */
static int cmdline_list(const char *v, hwloc_bitmap_t set)
{
	/* isolcpus= takes flags first: "nohz,domain,managed_irq,2-5" (housekeeping_isolcpus_setup()) */
	while (isalpha((unsigned char)*v) && strcmp(v, "all")) {
		const char *comma = strchr(v, ',');

		if (!comma)
			return -1;
		v = comma + 1;
	}
	if (!strcmp(v, "all")) {
		hwloc_bitmap_fill(set);
		return 0;
	}
	return hwloc_bitmap_list_sscanf(set, v) < 0 ? -1 : 0;
}

/* isolcpus=, nohz_full=, rcu_nocbs= of the command line in set[0..2]; -1 if it is absent */
static int read_cmdline(const struct pcb_state *st, hwloc_bitmap_t set[3], char *note,
			size_t len)
{
	static const char *const param[3] = { "isolcpus=", "nohz_full=", "rcu_nocbs=" };
	char buf[4096], *save = NULL;

	if (read_text(st, "proc/cmdline", buf, sizeof(buf)) < 0)
		return -1;
	for (char *w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		/* what follows "--" is init's */
		if (!strcmp(w, "--"))
			break;
		for (int i = 0; i < 3; i++) {
			size_t n = strlen(param[i]);

			if (strncmp(w, param[i], n))
				continue;
			if (cmdline_list(w + n, set[i]) < 0) {
				snprintf(note, len, "%sproc/cmdline: %s: not a CPU list read here",
					 st->root, w);
				hwloc_bitmap_zero(set[i]);
			}
		}
	}
	return 0;
}

static void isolation_items(struct pcb_state *st, hwloc_const_bitmap_t workers,
			    hwloc_bitmap_t set[3], const char *note)
{
	static const char *const name[3] = { "isolcpus", "nohz_full", "rcu_nocbs" };
	unsigned int cpu;

	hwloc_bitmap_foreach_begin(cpu, workers) {
		char value[192] = "";

		for (int i = 0; i < 3; i++)
			if (hwloc_bitmap_isset(set[i], cpu))
				snprintf(value + strlen(value), sizeof(value) - strlen(value),
					 "%s%s", *value ? ", " : "", name[i]);
		add_item(st, "isolation", (int)cpu, PCB_STATE_OK, *value ? value : "none", note);
	} hwloc_bitmap_foreach_end();
}

/* the kernel's command line, and sysfs's isolated and nohz_full lists (housekeeping) */
static void read_isolation(struct pcb_state *st, hwloc_const_bitmap_t workers)
{
	static const char *const sysfs[2] = {
		"sys/devices/system/cpu/isolated", "sys/devices/system/cpu/nohz_full",
	};
	hwloc_bitmap_t set[3] = { hwloc_bitmap_alloc(), hwloc_bitmap_alloc(),
				  hwloc_bitmap_alloc() }, sys = hwloc_bitmap_alloc();
	char note[320] = "", buf[4096];
	int have;

	if (!set[0] || !set[1] || !set[2] || !sys) {
		st->failed = 1;
		goto out;
	}
	have = read_cmdline(st, set, note, sizeof(note)) == 0;
	for (int i = 0; i < 2; i++) {
		if (read_text(st, sysfs[i], buf, sizeof(buf)) < 0)
			continue;
		have = 1;
		if (*buf && hwloc_bitmap_list_sscanf(sys, buf) == 0)
			hwloc_bitmap_or(set[i], set[i], sys);
	}
	if (!have) {
		snprintf(note, sizeof(note), "neither %sproc/cmdline nor %s%s", st->root,
			 st->root, sysfs[0]);
		add_item(st, "isolation", -1, PCB_STATE_UNKNOWN, "absent", note);
		goto out;
	}
	isolation_items(st, workers, set, note);
out:
	for (int i = 0; i < 3; i++)
		hwloc_bitmap_free(set[i]);
	hwloc_bitmap_free(sys);
}

/*
 * randomize_va_space, and this process's own: run's re-exec, or (check)
 * whether run could turn it off here
 */
static void read_aslr(struct pcb_state *st, const char *process)
{
	static const char rel[] = "proc/sys/kernel/randomize_va_space";
	enum pcb_state_verdict v = PCB_STATE_NOTE;
	char note[320], value[192];
	long r;
	int rc;

	if (read_long(st, rel, &r, note, sizeof(note)) < 0) {
		add_item(st, "aslr", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	if (r == 0) {
		add_item(st, "aslr", -1, PCB_STATE_OK, "off (randomize_va_space 0)", "");
		return;
	}
	snprintf(value, sizeof(value), "on (randomize_va_space %ld)", r);
	if (process && *process) {
		v = pcb_aslr_kept(process) ? PCB_STATE_BAD : PCB_STATE_OK;
		snprintf(note, sizeof(note), "this process: %s", process);
	} else if (strcmp(st->root, "/")) {
		snprintf(note, sizeof(note), "run re-executes itself without it (personality not "
			 "tried: the root is not this machine's)");
	} else if ((rc = pcb_aslr_probe()) < 0) {
		v = PCB_STATE_BAD;
		snprintf(note, sizeof(note), "personality(ADDR_NO_RANDOMIZE) is refused here (%s): "
			 "runs keep it", strerror(-rc));
	} else {
		snprintf(note, sizeof(note), "run re-executes itself without it "
			 "(personality ADDR_NO_RANDOMIZE; --keep-aslr keeps it)");
	}
	add_item(st, "aslr", -1, v, value, note);
}

/* the [choice] of transparent_hugepage/enabled */
static void read_thp(struct pcb_state *st)
{
	static const char rel[] = "sys/kernel/mm/transparent_hugepage/enabled";
	char buf[256], note[320], *open, *close;

	snprintf(note, sizeof(note), "%s%s", st->root, rel);
	if (read_text(st, rel, buf, sizeof(buf)) < 0) {
		snprintf(note, sizeof(note), "no %s%s: a kernel without THP, or not readable",
			 st->root, rel);
		add_item(st, "thp", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		snprintf(note, sizeof(note), "%s%s: '%s' names no [choice]", st->root, rel, buf);
		add_item(st, "thp", -1, PCB_STATE_UNKNOWN, "unreadable", note);
		return;
	}
	*close = 0;
	add_item(st, "thp", -1, strcmp(open + 1, "always") ? PCB_STATE_OK : PCB_STATE_NOTE,
		 open + 1, note);
}

static void read_paranoid(struct pcb_state *st)
{
	static const char rel[] = "proc/sys/kernel/perf_event_paranoid";
	char note[320], value[32];
	long v;

	if (read_long(st, rel, &v, note, sizeof(note)) < 0) {
		add_item(st, "perf_event_paranoid", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	snprintf(value, sizeof(value), "%ld", v);
	add_item(st, "perf_event_paranoid", -1, v >= 2 ? PCB_STATE_NOTE : PCB_STATE_OK, value,
		 v >= 3 ? "no perf events for a user without CAP_PERFMON" :
		 v == 2 ? "user-mode counting only" : "");
}

static void read_tsc_step(struct pcb_state *st, uint64_t step)
{
	char value[64];

	if (!step)
		return;
	snprintf(value, sizeof(value), "%llu tick%s", (unsigned long long)step,
		 step == 1 ? "" : "s");
	add_item(st, "tsc_step", -1, step == 1 ? PCB_STATE_OK : PCB_STATE_NOTE, value,
		 "gcd of observed increments (struct pcb_clock step)");
}

/* st's root from o (or PCPBENCH_SYSROOT), as a prefix ending in '/': 0, or -1 with err */
static int set_root(struct pcb_state *st, const struct pcb_state_opts *o, char *err,
		    size_t errlen)
{
	const char *env = getenv("PCPBENCH_SYSROOT");
	const char *root = o->root ? o->root : env && *env ? env : "/";
	size_t n = strlen(root);
	struct stat sb;

	if (stat(root, &sb) < 0 || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "%s %s: not a directory", o->root ? "root" :
			 "PCPBENCH_SYSROOT", root);
		return -1;
	}
	if (n + 2 > sizeof(st->root)) {
		snprintf(err, errlen, "PCPBENCH_SYSROOT %s: too long", root);
		return -1;
	}
	while (n > 1 && root[n - 1] == '/')
		n--;
	snprintf(st->root, sizeof(st->root), "%.*s%s", (int)n, root,
		 n == 1 && root[0] == '/' ? "" : "/");
	return 0;
}

int pcb_state_read(struct pcb_state *st, const struct pcb_state_opts *o, char *err,
		   size_t errlen)
{
	unsigned int cpu;

	memset(st, 0, sizeof(*st));
	if (set_root(st, o, err, errlen) < 0)
		return -1;
	read_hypervisor(st);
	hwloc_bitmap_foreach_begin(cpu, o->workers) {
		read_cpufreq_cpu(st, cpu);
	} hwloc_bitmap_foreach_end();
	read_boost(st, o->workers);
	read_smt(st, o);
	read_isolation(st, o->workers);
	read_aslr(st, o->aslr);
	read_thp(st);
	read_paranoid(st);
	read_tsc_step(st, o->tsc_step);
	if (st->failed) {
		pcb_state_free(st);
		snprintf(err, errlen, "the machine's state: out of memory");
		return -1;
	}
	return 0;
}

void pcb_state_free(struct pcb_state *st)
{
	for (int i = 0; i < st->nr; i++)
		hwloc_bitmap_free(st->item[i].cpus);
	free(st->item);
	st->item = NULL;
	st->nr = st->room = 0;
}

int pcb_state_nr_bad(const struct pcb_state *st)
{
	int n = 0;

	for (int i = 0; i < st->nr; i++)
		n += st->item[i].verdict == PCB_STATE_BAD;
	return n;
}

const struct pcb_state_item *pcb_state_find(const struct pcb_state *st, const char *setting,
					    int cpu)
{
	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];

		if (strcmp(it->setting, setting))
			continue;
		/* a machine-wide item answers for every CPU */
		if (!it->cpus || (cpu >= 0 && hwloc_bitmap_isset(it->cpus, (unsigned int)cpu)))
			return it;
	}
	return NULL;
}
