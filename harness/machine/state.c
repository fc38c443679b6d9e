/* SPDX-License-Identifier: MIT */
/*
 * The machine's state: its items, the files they are read from under the
 * root, the hypervisor and the TSC step, and the order the settings are
 * read in. The workers' CPUs are read in state_cpu.c, the kernel's
 * settings in state_kernel.c.
 */
#include <cpuid.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"
#include "state_read.h"
#include "cpulist.h"

/* what each setting does to a figure; docs/measurement.md says the same */
static const struct {
	const char *setting, *effect;
} effects[] = {
	{ "hypervisor", "in a VM an IPI, the wake of an idle vCPU and the timer are VM exits: "
	  "drain and wake figures are the host's as much as the model's; under emulation "
	  "(QEMU's TCG) no figure is a timing" },
	{ "platform", "under User-mode Linux the kernel is a host process: its functions run at "
	  "the host CPU's speed, but masking interrupts sets a flag (no cli), per-CPU data is "
	  "reached through offsets (no %gs), IPIs and timers are host signals and system calls "
	  "host round trips; its CPUs are host threads the host schedules" },
	{ "cpufreq.driver", "what sets the frequency (intel_pstate, amd-pstate, acpi-cpufreq); "
	  "absent: the host or the firmware, unseen from here" },
	{ "cpufreq.governor", "figures are TSC cycles, which do not follow the core clock: a "
	  "governor that moves the frequency (any but performance, unless min = max) moves "
	  "every figure with the load" },
	{ "cpufreq.min_max", "the range the governor moves the frequency in; min = max holds it" },
	{ "boost", "turbo raises the clock by temperature and by how many cores are busy: a "
	  "figure moves with the other CPUs' load and from one run to the next" },
	{ "smt", "a worker whose SMT sibling runs shares its core's pipelines, L1 and L2: its "
	  "figures rise by what the sibling does" },
	{ "load", "a task that runs on a worker's CPU takes its turns from the worker: the "
	  "worker loses time to it, and its caches and TLB come back cold" },
	{ "steal", "a host that runs other guests on a worker's vCPU stops it for that long: "
	  "interruptions the guest cannot see, in every figure they fall in" },
	{ "runnable", "tasks runnable beyond the CPUs that run no worker (or a load average "
	  "above them) run on the workers' CPUs: each run loses time to them" },
	{ "run.steal", "the same, over the runs: the host's share of each worker CPU while it "
	  "was measured" },
	{ "run.load", "the load average at the end of the runs, the workers in it: above the "
	  "CPUs, other tasks shared the workers' CPUs while they were measured" },
	{ "isolation", "isolcpus, nohz_full and rcu_nocbs keep other tasks, the tick and RCU "
	  "callbacks off a worker: fewer interruptions; designs that skip cpu_is_isolated() "
	  "CPUs drain them differently" },
	{ "aslr", "where the binary, stacks and heap are mapped moves small figures by a cycle "
	  "or more from one invocation to the next; run re-executes itself without it" },
	{ "thp", "always: a large mapping may fault in huge pages, and the page allocator "
	  "model's page-fault and munmap figures then count fewer, larger faults" },
	{ "perf_event_paranoid", "2: hardware counters count user mode only (counters.kernel "
	  "is dropped); 3 or more: a user opens no counters, which print <not supported>" },
	{ "pmu", "the CPU's performance monitoring unit: without one (many VMs) no hardware "
	  "event (cycles, instructions, cache-misses) is counted, whatever "
	  "perf_event_paranoid says; software events still are" },
	{ "tsc_step", "the TSC's resolution: above 1 cycle (some VMs) a short region reads as "
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

void pcb_one_line(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	for (; *src; src++) {
		int brk = *src == '\n';

		if (n + 1 + brk >= len)
			break;
		if (brk)
			dst[n++] = '\\';
		dst[n++] = brk ? 'n' : *src;
	}
	dst[n] = 0;
}

void pcb_state_add(struct pcb_state *st, const char *setting, int cpu, enum pcb_state_verdict v,
		   const char *value, const char *note)
{
	struct pcb_state_item *it;
	char val[sizeof(it->value)], nt[sizeof(it->note)];

	/* a value is one line of its file: one under the root holding more prints on one */
	pcb_one_line(val, sizeof(val), value);
	pcb_one_line(nt, sizeof(nt), note);
	for (int i = 0; cpu >= 0 && i < st->nr; i++) {
		it = &st->item[i];
		if (it->cpus && it->verdict == v && !strcmp(it->setting, setting) &&
		    !strcmp(it->value, val) && !strcmp(it->note, nt)) {
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
	memcpy(it->value, val, sizeof(val));
	memcpy(it->note, nt, sizeof(nt));
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

FILE *pcb_state_fopen(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) < 0)
		e = errno;
	else if (!S_ISREG(sb.st_mode))
		e = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int pcb_state_file_text(const struct pcb_state *st, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX + 256];
	FILE *f;
	size_t n;
	int more;

	snprintf(path, sizeof(path), "%s%s", st->root, rel);
	f = pcb_state_fopen(path);
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	/* a value longer than its buffer is refused, not cut inside a word */
	more = n == len - 1 && fgetc(f) != EOF;
	fclose(f);
	buf[n] = 0;
	if (more)
		return -EFBIG;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return 0;
}

char *pcb_state_file_all(const char *root, const char *rel)
{
	char path[PATH_MAX + 256], *buf = NULL, *nb;
	size_t n = 0, room = 0, got = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = pcb_state_fopen(path);
	if (!f)
		return NULL;
	while (got && n <= PCB_STATE_MAX_BYTES) {
		if (n + 4096 + 1 > room) {
			room = room ? 2 * room : 16384;
			nb = realloc(buf, room);
			if (!nb)
				break;
			buf = nb;
		}
		got = fread(buf + n, 1, room - n - 1, f);
		n += got;
	}
	fclose(f);
	if (buf && n > PCB_STATE_MAX_BYTES) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	if (buf)
		buf[n] = 0;
	return buf;
}

int pcb_state_file_cpus(const char *root, const char *rel, hwloc_bitmap_t set, char *why,
			size_t len)
{
	char *text = pcb_state_file_all(root, rel);
	size_t n;
	int rc;

	hwloc_bitmap_zero(set);
	if (!text) {
		rc = -errno;
		snprintf(why, len, "%s", strerror(errno));
		return rc;
	}
	for (n = strlen(text); n && isspace((unsigned char)text[n - 1]); n--)
		text[n - 1] = 0;
	rc = pcb_cpulist_parse(text, set, why, len);
	free(text);
	return rc < 0 ? -EINVAL : 0;
}

int pcb_state_file_long(const struct pcb_state *st, const char *rel, long *v, char *note,
			size_t len)
{
	char buf[64], *end;
	int rc = pcb_state_file_text(st, rel, buf, sizeof(buf));

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
		pcb_one_line(buf, len, env);
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

int pcb_state_emulated(const char *vendor)
{
	return !strncmp(vendor, "TCGTCGTCGTCG", 12);
}

static void read_hypervisor(struct pcb_state *st)
{
	char vendor[64], value[96], note[320];
	int hv = pcb_state_hypervisor(vendor, sizeof(vendor));
	const char *env = getenv("PCPBENCH_HYPERVISOR");
	enum pcb_state_verdict v = hv ? PCB_STATE_NOTE : PCB_STATE_OK;

	snprintf(value, sizeof(value), "%s", vendor);
	snprintf(note, sizeof(note), "%s", env && *env ? "PCPBENCH_HYPERVISOR" :
		 hv ? "CPUID: hypervisor bit set, vendor leaf 0x40000000" :
		 "CPUID: hypervisor bit clear");
	if (pcb_state_emulated(vendor)) {
		v = PCB_STATE_BAD;
		snprintf(value, sizeof(value), "%s, emulated", vendor);
		snprintf(note + strlen(note), sizeof(note) - strlen(note), "; QEMU translates "
			 "every instruction and its TSC counts the host's time, not this CPU's "
			 "cycles: figures are functional, never timings");
	}
	pcb_state_add(st, "hypervisor", -1, v, value, note);
}

static void read_tsc_step(struct pcb_state *st, uint64_t step)
{
	char value[64];

	if (!step)
		return;
	snprintf(value, sizeof(value), "%llu cycle%s", (unsigned long long)step,
		 step == 1 ? "" : "s");
	pcb_state_add(st, "tsc_step", -1, step == 1 ? PCB_STATE_OK : PCB_STATE_NOTE, value,
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

int pcb_state_init(struct pcb_state *st, const char *root, char *err, size_t errlen)
{
	const struct pcb_state_opts o = { .root = root };

	memset(st, 0, sizeof(*st));
	return set_root(st, &o, err, errlen);
}

int pcb_state_read(struct pcb_state *st, const struct pcb_state_opts *o, char *err,
		   size_t errlen)
{
	if (pcb_state_init(st, o->root, err, errlen) < 0)
		return -1;
	read_hypervisor(st);
	pcb_state_read_platform(st);
	pcb_state_read_cpus(st, o);
	pcb_state_read_load(st, o);
	pcb_state_read_kernel(st, o);
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
