/* SPDX-License-Identifier: MIT */
/*
 * How busy the machine is, from /proc/stat and /proc/loadavg: the share of
 * each worker CPU other tasks ran on, the share a hypervisor stole from it
 * (the steal column, time its vCPU waited for the host), and the tasks
 * runnable against the CPUs (procs_running, the 1-minute load average).
 * Sampled over a moment before a run (check, and run's state) and over
 * the runs themselves (run), each period judged as the other settings
 * are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state_read.h"


/* "procs_running N" of a /proc/stat text, -1 if absent */
static int procs_running(const char *stat)
{
	const char *p = stat ? strstr(stat, "\nprocs_running ") : NULL;

	return p ? atoi(p + 15) : -1;
}

void pcb_load_sample_take(struct pcb_load_sample *s, const char *root)
{
	char *avg;

	memset(s, 0, sizeof(*s));
	s->load1 = -1;
	s->stat = pcb_state_file_all(root, "proc/stat");
	s->running = procs_running(s->stat);
	avg = pcb_state_file_all(root, "proc/loadavg");
	/* "0.52 0.58 0.59 2/345 12345": the 1-minute load, runnable/total, last pid */
	if (avg && sscanf(avg, "%lf", &s->load1) != 1)
		s->load1 = -1;
	free(avg);
}

void pcb_load_sample_free(struct pcb_load_sample *s)
{
	free(s->stat);
	s->stat = NULL;
}

int pcb_state_stat_cpus(const char *stat)
{
	int n = 0;

	for (const char *p = stat; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, "cpu", 3) && p[3] >= '0' && p[3] <= '9';
	return n;
}

int pcb_state_steal_pct(const char *before, const char *after, unsigned int cpu)
{
	unsigned long long a[8] = { 0 }, b[8], total = 0;

	/* no text before: the counters since boot */
	if ((before && !pcb_state_stat_line(before, cpu, a)) || !pcb_state_stat_line(after, cpu, b))
		return -1;
	for (int i = 0; i < 8; i++)
		total += b[i] >= a[i] ? b[i] - a[i] : 0;
	if (!total)
		return -1;
	return (int)((b[7] >= a[7] ? b[7] - a[7] : 0) * 100 / total);
}

/* what a period's items say it is: "over 200 ms", "over the runs" */
static const char *over(const struct pcb_load_period *p, char *buf, size_t len)
{
	if (!p->before)
		snprintf(buf, len, "since boot (a root that is not this machine's is not sampled)");
	else if (p->run)
		snprintf(buf, len, "over the runs (%.1f s)", p->seconds);
	else
		snprintf(buf, len, "over %.0f ms", p->seconds * 1000);
	return buf;
}

/* others' share of each worker CPU: before a run, where nothing of pcpbench's runs there */
static void load_items(struct pcb_state *st, const struct pcb_load_period *p)
{
	const char *before = p->before ? p->before->stat : NULL;
	char when[128], value[64], note[320];
	unsigned int cpu;

	over(p, when, sizeof(when));
	hwloc_bitmap_foreach_begin(cpu, p->workers) {
		int pct = pcb_state_busy_pct(before, p->after->stat, cpu);

		if (pct < 0) {
			pcb_state_add(st, "load", (int)cpu, PCB_STATE_UNKNOWN, "not sampled",
				      "no line of the CPU, or no tick of it, in /proc/stat");
			continue;
		}
		snprintf(value, sizeof(value), "%d%% busy", pct);
		snprintf(note, sizeof(note), "other tasks ran %d%% of its ticks %s", pct, when);
		pcb_state_add(st, "load", (int)cpu, pct > PCB_STATE_BUSY_PCT ? PCB_STATE_BAD :
			      PCB_STATE_OK, pct > PCB_STATE_BUSY_PCT ? value : "idle", note);
	} hwloc_bitmap_foreach_end();
}

/* the hypervisor's share of each worker CPU's time */
static void steal_items(struct pcb_state *st, const struct pcb_load_period *p)
{
	const char *setting = p->run ? "run.steal" : "steal";
	char when[128], value[64], note[320];
	unsigned int cpu;

	over(p, when, sizeof(when));
	hwloc_bitmap_foreach_begin(cpu, p->workers) {
		int pct = pcb_state_steal_pct(p->before ? p->before->stat : NULL, p->after->stat,
					      cpu);

		if (pct < 0) {
			pcb_state_add(st, setting, (int)cpu, PCB_STATE_UNKNOWN, "not sampled",
				      "no line of the CPU, or no tick of it, in /proc/stat");
			continue;
		}
		snprintf(value, sizeof(value), "%d%%", pct);
		snprintf(note, sizeof(note), "the host ran something else for %d%% of its time %s",
			 pct, when);
		pcb_state_add(st, setting, (int)cpu, pct > PCB_STATE_STEAL_PCT ? PCB_STATE_BAD :
			      PCB_STATE_OK, value, note);
	} hwloc_bitmap_foreach_end();
}

/*
 * The tasks that compete for the CPUs: runnable beside pcpbench's own (a
 * moment's count), and the 1-minute load average, pcpbench's workers in
 * it over the runs, against the CPUs that run none of them
 */
static void runnable_item(struct pcb_state *st, const struct pcb_load_period *p)
{
	const char *setting = p->run ? "run.load" : "runnable";
	int workers = hwloc_bitmap_weight(p->workers), online = p->online;
	int free_cpus = online - workers, others = p->after->running - p->ours;
	/* over the runs the load average has pcpbench's busy threads in it */
	double load = p->after->load1, others_load = load - (p->run ? p->ours : 0);
	enum pcb_state_verdict v = PCB_STATE_OK;
	char value[128], note[320];

	if (load < 0 || online <= 0) {
		pcb_state_add(st, setting, -1, PCB_STATE_UNKNOWN, "absent",
			      "no /proc/loadavg, or no CPU in /proc/stat, under the root");
		return;
	}
	if (p->after->running < 0 || p->run)
		snprintf(value, sizeof(value), "load average %.2f on %d CPUs", load, online);
	else
		snprintf(value, sizeof(value), "%d task(s) runnable beside pcpbench, load average "
			 "%.2f on %d CPUs", others > 0 ? others : 0, load, online);
	/*
	 * a CPU's worth of others' load more than the CPUs without a worker, or
	 * more tasks runnable now than they can take: some run on a worker's CPU
	 */
	if (others_load >= free_cpus + 1 || (!p->run && others > free_cpus))
		v = PCB_STATE_BAD;
	else if (others_load > free_cpus)
		v = PCB_STATE_NOTE;
	snprintf(note, sizeof(note), "%d CPU(s) run no worker; others' load %.2f%s", free_cpus,
		 others_load > 0 ? others_load : 0, v != PCB_STATE_OK ? ": some of it runs on the "
		 "workers' CPUs" : "");
	pcb_state_add(st, setting, -1, v, value, note);
}

void pcb_state_load_items(struct pcb_state *st, const struct pcb_load_period *p)
{
	if (!p->after->stat) {
		pcb_state_add(st, p->run ? "run.load" : "runnable", -1, PCB_STATE_UNKNOWN, "absent",
			      "no /proc/stat under the root");
		return;
	}
	if (!p->run)
		load_items(st, p);
	steal_items(st, p);
	runnable_item(st, p);
}

void pcb_state_read_load(struct pcb_state *st, const struct pcb_state_opts *o)
{
	struct pcb_load_sample a, b;
	struct pcb_load_period p = { .workers = o->workers, .after = &b, .ours = 1 };
	int sampled = !strcmp(st->root, "/") && o->sample_ms > 0;

	/* a fixture tree's counters do not move: they stand for a sample since boot */
	if (sampled) {
		pcb_load_sample_take(&a, st->root);
		usleep((useconds_t)o->sample_ms * 1000);
		p.before = &a;
		p.seconds = o->sample_ms / 1000.0;
	}
	pcb_load_sample_take(&b, st->root);
	p.online = pcb_state_stat_cpus(b.stat);
	pcb_state_load_items(st, &p);
	if (sampled)
		pcb_load_sample_free(&a);
	pcb_load_sample_free(&b);
}
