/* SPDX-License-Identifier: MIT */
/*
 * The machine's state of each worker's CPU: its cpufreq driver, governor
 * and frequency range, boost, and its SMT siblings (a worker among them,
 * or one busy over a /proc/stat sample).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"
#include "state_read.h"

static int is_dir(const struct pcb_state *st, const char *rel)
{
	char path[PATH_MAX + 256];
	struct stat sb;

	snprintf(path, sizeof(path), "%s%s", st->root, rel);
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
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
		pcb_state_add(st, settings[i], cpu, PCB_STATE_UNKNOWN, "absent", note);
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
	pcb_state_add(st, "cpufreq.governor", cpu, v, value, note);
}

/* a cpufreq file's text: a driver's or a governor's name is shorter */
#define CPUFREQ_TEXT 64

/* the file of cpu's cpufreq dir into buf: 0, or -1 with setting's item unknown, saying why */
static int cpufreq_text(struct pcb_state *st, int cpu, const char *setting, const char *dir,
			const char *file, char buf[CPUFREQ_TEXT])
{
	char rel[128], note[320];
	int rc;

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	rc = pcb_state_file_text(st, rel, buf, CPUFREQ_TEXT);
	if (!rc)
		return 0;
	if (rc == -EFBIG)
		snprintf(note, sizeof(note), "cpuN/cpufreq/%s: longer than %d bytes, which no "
			 "name there is", file, CPUFREQ_TEXT - 1);
	else
		snprintf(note, sizeof(note), "no cpuN/cpufreq/%s", file);
	pcb_state_add(st, setting, cpu, PCB_STATE_UNKNOWN, rc == -EFBIG ? "unreadable" : "absent",
		      note);
	return -1;
}

static void read_cpufreq_cpu(struct pcb_state *st, unsigned int cpu)
{
	char rel[128], dir[96], buf[CPUFREQ_TEXT], note[320], value[192];
	long min = -1, max = -1;
	int lo, hi;

	snprintf(dir, sizeof(dir), "sys/devices/system/cpu/cpu%u/cpufreq", cpu);
	if (!is_dir(st, dir)) {
		no_cpufreq(st, (int)cpu);
		return;
	}
	if (cpufreq_text(st, (int)cpu, "cpufreq.driver", dir, "scaling_driver", buf) == 0)
		pcb_state_add(st, "cpufreq.driver", (int)cpu, PCB_STATE_OK, buf, "");
	snprintf(rel, sizeof(rel), "%s/scaling_min_freq", dir);
	lo = pcb_state_file_long(st, rel, &min, note, sizeof(note));
	snprintf(rel, sizeof(rel), "%s/scaling_max_freq", dir);
	hi = lo < 0 ? -1 : pcb_state_file_long(st, rel, &max, note, sizeof(note));
	if (cpufreq_text(st, (int)cpu, "cpufreq.governor", dir, "scaling_governor", buf) == 0)
		governor_item(st, (int)cpu, buf, lo < 0 || hi < 0 ? -1 : min,
			      lo < 0 || hi < 0 ? -1 : max);
	if (lo < 0 || hi < 0) {
		/* the note names cpuN's file: the same item for every CPU it is wrong on */
		pcb_state_add(st, "cpufreq.min_max", (int)cpu, PCB_STATE_UNKNOWN, "unreadable",
			      note);
		return;
	}
	if (min == max)
		snprintf(value, sizeof(value), "%ld kHz (min = max)", min);
	else
		snprintf(value, sizeof(value), "%ld..%ld kHz", min, max);
	pcb_state_add(st, "cpufreq.min_max", (int)cpu, PCB_STATE_OK, value, "");
}

/* on or off from a file, the verdict and the note naming it */
static void boost_item(struct pcb_state *st, int cpu, int on, const char *rel, long v)
{
	char note[320];

	snprintf(note, sizeof(note), "%s%s = %ld", st->root, rel, v);
	pcb_state_add(st, "boost", cpu, on ? PCB_STATE_BAD : PCB_STATE_OK, on ? "on" : "off", note);
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

	if (pcb_state_file_long(st, global, &v, note, sizeof(note)) == 0) {
		boost_item(st, -1, v != 0, global, v);
		return;
	}
	if (pcb_state_file_long(st, no_turbo, &v, note, sizeof(note)) == 0) {
		boost_item(st, -1, v == 0, no_turbo, v);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, workers) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/boost", cpu);
		found |= pcb_state_file_long(st, rel, &v, note, sizeof(note)) == 0;
	} hwloc_bitmap_foreach_end();
	if (!found) {
		snprintf(note, sizeof(note), "none of %s%s, %s%s, cpuN/cpufreq/boost: the host or "
			 "the firmware decides", st->root, global, st->root, no_turbo);
		pcb_state_add(st, "boost", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	hwloc_bitmap_foreach_begin(cpu, workers) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cpufreq/boost", cpu);
		if (pcb_state_file_long(st, rel, &v, note, sizeof(note)) == 0)
			boost_item(st, (int)cpu, v != 0, "sys/devices/system/cpu/cpuN/cpufreq/boost",
				   v);
		else
			pcb_state_add(st, "boost", (int)cpu, PCB_STATE_UNKNOWN, "absent",
				      "no cpuN/cpufreq/boost");
	} hwloc_bitmap_foreach_end();
}
int pcb_state_stat_line(const char *text, unsigned int cpu, unsigned long long f[8])
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
	unsigned long long a[8] = { 0 }, b[8], busy = 0, total = 0;

	/* no text before: the counters since boot */
	if ((before && !pcb_state_stat_line(before, cpu, a)) ||
	    !pcb_state_stat_line(after, cpu, b))
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
	char rel[128], why[160];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list",
		 cpu);
	if (pcb_state_file_cpus(st->root, rel, sib, why, sizeof(why)) < 0) {
		/* the note names cpuN's file: the same item for every CPU it is wrong on */
		snprintf(note, len, "%ssys/devices/system/cpu/cpuN/topology/thread_siblings_list: "
			 "%s", st->root, why);
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
	*before = pcb_state_file_all(st->root, "proc/stat");
	usleep((useconds_t)o->sample_ms * 1000);
	*after = pcb_state_file_all(st->root, "proc/stat");
}

/* a worker's siblings: none, a worker among them, or the busiest of the others */
static void smt_item(struct pcb_state *st, const struct pcb_state_opts *o, unsigned int cpu,
		     hwloc_const_bitmap_t sib, const char *const stat[2])
{
	unsigned int s;
	int busy = -1;
	char note[320];

	if (hwloc_bitmap_iszero(sib)) {
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_OK, "no sibling", "");
		return;
	}
	if (hwloc_bitmap_intersects(sib, o->workers)) {
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_BAD, "a sibling is a worker",
			      "two workers share a core: each one's figures include the other's "
			      "work");
		return;
	}
	if (!stat[0] || !stat[1]) {
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "siblings not sampled",
			      strcmp(st->root, "/") ? "the root is not this machine's: its "
			      "/proc/stat is not sampled" : "no /proc/stat sample");
		return;
	}
	hwloc_bitmap_foreach_begin(s, sib) {
		int pct = pcb_state_busy_pct(stat[0], stat[1], s);

		busy = pct > busy ? pct : busy;
	} hwloc_bitmap_foreach_end();
	snprintf(note, sizeof(note), "busiest sibling %d%% of its ticks over %d ms of /proc/stat",
		 busy, o->sample_ms);
	if (busy < 0)
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "siblings not sampled",
			      "no tick of a sibling in the /proc/stat sample");
	else if (busy > PCB_STATE_BUSY_PCT)
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_BAD, "a sibling is busy", note);
	else
		pcb_state_add(st, "smt", (int)cpu, PCB_STATE_OK, "siblings idle", "");
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
			pcb_state_add(st, "smt", (int)cpu, PCB_STATE_UNKNOWN, "absent", note);
		else
			smt_item(st, o, cpu, sib, (const char *const *)stat);
	} hwloc_bitmap_foreach_end();
out:
	free(stat[0]);
	free(stat[1]);
	hwloc_bitmap_free(sib);
	hwloc_bitmap_free(others);
}

void pcb_state_read_cpus(struct pcb_state *st, const struct pcb_state_opts *o)
{
	unsigned int cpu;

	hwloc_bitmap_foreach_begin(cpu, o->workers) {
		read_cpufreq_cpu(st, cpu);
	} hwloc_bitmap_foreach_end();
	read_boost(st, o->workers);
	read_smt(st, o);
}
