/* SPDX-License-Identifier: MIT */
/*
 * The machine's state the kernel sets: the workers' isolation (isolcpus,
 * nohz_full, rcu_nocbs), ASLR, transparent huge pages and
 * perf_event_paranoid.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "aslr.h"
#include "state.h"
#include "state_read.h"
#include "cpulist.h"

/* a CPU list of the kernel's command line into set ("all" is every CPU); -1 with why */
static int cmdline_list(const char *v, hwloc_bitmap_t set, char *why, size_t len)
{
	/* isolcpus= takes flags first: "nohz,domain,managed_irq,2-5" (housekeeping_isolcpus_setup()) */
	while (isalpha((unsigned char)*v) && strcmp(v, "all")) {
		const char *comma = strchr(v, ',');

		if (!comma) {
			snprintf(why, len, "no CPU list after the flags");
			return -1;
		}
		v = comma + 1;
	}
	if (!strcmp(v, "all")) {
		hwloc_bitmap_fill(set);
		return 0;
	}
	return pcb_cpulist_parse(v, set, why, len);
}

/* isolcpus=, nohz_full=, rcu_nocbs= of the command line in set[0..2]; -1 if it is absent */
static int read_cmdline(const struct pcb_state *st, hwloc_bitmap_t set[3], char *note,
			size_t len)
{
	static const char *const param[3] = { "isolcpus=", "nohz_full=", "rcu_nocbs=" };
	char buf[8192], why[160], *save = NULL;

	if (pcb_state_file_text(st, "proc/cmdline", buf, sizeof(buf)) < 0)
		return -1;
	for (char *w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		/* what follows "--" is init's */
		if (!strcmp(w, "--"))
			break;
		for (int i = 0; i < 3; i++) {
			size_t n = strlen(param[i]);

			if (strncmp(w, param[i], n))
				continue;
			if (cmdline_list(w + n, set[i], why, sizeof(why)) < 0) {
				snprintf(note, len, "%sproc/cmdline: %.64s: %s", st->root, w, why);
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
		pcb_state_add(st, "isolation", (int)cpu, PCB_STATE_OK, *value ? value : "none",
			      note);
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
	char note[320] = "", why[160];
	int have;

	if (!set[0] || !set[1] || !set[2] || !sys) {
		st->failed = 1;
		goto out;
	}
	have = read_cmdline(st, set, note, sizeof(note)) == 0;
	for (int i = 0; i < 2; i++) {
		int rc = pcb_state_file_cpus(st->root, sysfs[i], sys, why, sizeof(why));

		if (rc == -ENOENT)
			continue;
		have = 1;
		if (rc == 0)
			hwloc_bitmap_or(set[i], set[i], sys);
		else
			snprintf(note, sizeof(note), "%s%s: %s", st->root, sysfs[i], why);
	}
	if (!have) {
		snprintf(note, sizeof(note), "neither %sproc/cmdline nor %s%s", st->root,
			 st->root, sysfs[0]);
		pcb_state_add(st, "isolation", -1, PCB_STATE_UNKNOWN, "absent", note);
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

	if (pcb_state_file_long(st, rel, &r, note, sizeof(note)) < 0) {
		pcb_state_add(st, "aslr", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	if (r == 0) {
		pcb_state_add(st, "aslr", -1, PCB_STATE_OK, "off (randomize_va_space 0)", "");
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
	pcb_state_add(st, "aslr", -1, v, value, note);
}

/* the [choice] of transparent_hugepage/enabled */
static void read_thp(struct pcb_state *st)
{
	static const char rel[] = "sys/kernel/mm/transparent_hugepage/enabled";
	char buf[256], note[320], *open, *close;

	snprintf(note, sizeof(note), "%s%s", st->root, rel);
	if (pcb_state_file_text(st, rel, buf, sizeof(buf)) < 0) {
		snprintf(note, sizeof(note), "no %s%s: a kernel without THP, or not readable",
			 st->root, rel);
		pcb_state_add(st, "thp", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		snprintf(note, sizeof(note), "%s%s: '%s' names no [choice]", st->root, rel, buf);
		pcb_state_add(st, "thp", -1, PCB_STATE_UNKNOWN, "unreadable", note);
		return;
	}
	*close = 0;
	pcb_state_add(st, "thp", -1, strcmp(open + 1, "always") ? PCB_STATE_OK : PCB_STATE_NOTE,
		      open + 1, note);
}

/* the CPU's PMUs as perf names them (x86's cpu, a hybrid's cpu_core and cpu_atom, arm's) */
static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0", NULL };

int pcb_state_pmu(const char *root, char *name, size_t len)
{
	char path[PATH_MAX + 96];
	struct stat sb;

	for (int i = 0; pmus[i]; i++) {
		snprintf(path, sizeof(path), "%ssys/bus/event_source/devices/%s", root, pmus[i]);
		if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
			snprintf(name, len, "%s", pmus[i]);
			return 1;
		}
	}
	snprintf(name, len, "none");
	return 0;
}

static void read_pmu(struct pcb_state *st, int *pmu)
{
	char name[32], note[320];

	*pmu = pcb_state_pmu(st->root, name, sizeof(name));
	snprintf(note, sizeof(note), "%ssys/bus/event_source/devices/%s%s", st->root,
		 *pmu ? name : "", *pmu ? "" : " has no CPU PMU: hardware events cannot be "
		 "counted here; software events can");
	pcb_state_add(st, "pmu", -1, *pmu ? PCB_STATE_OK : PCB_STATE_NOTE,
		      *pmu ? name : "none", note);
}

static void read_paranoid(struct pcb_state *st, int pmu)
{
	static const char rel[] = "proc/sys/kernel/perf_event_paranoid";
	char note[320], value[32];
	long v;

	if (pcb_state_file_long(st, rel, &v, note, sizeof(note)) < 0) {
		pcb_state_add(st, "perf_event_paranoid", -1, PCB_STATE_UNKNOWN, "absent", note);
		return;
	}
	snprintf(value, sizeof(value), "%ld", v);
	/* without a PMU it governs the software events alone */
	pcb_state_add(st, "perf_event_paranoid", -1, v >= 2 ? PCB_STATE_NOTE : PCB_STATE_OK, value,
		      v >= 3 ? "no perf events for a user without CAP_PERFMON" :
		      v == 2 && !pmu ? "user-mode counting only, of software events: no PMU" :
		      v == 2 ? "user-mode counting only" : "");
}

void pcb_state_read_kernel(struct pcb_state *st, const struct pcb_state_opts *o)
{
	int pmu;

	read_isolation(st, o->workers);
	read_aslr(st, o->aslr);
	read_thp(st);
	read_pmu(st, &pmu);
	read_paranoid(st, pmu);
}
