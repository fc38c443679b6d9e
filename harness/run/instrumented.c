/* SPDX-License-Identifier: MIT */
/*
 * A run in the instrumented backend (run.backend = instrumented): the
 * booted kernel's own mm/memcontrol.c, timed by seed 000's instrument
 * (scripts/kernel.sh builds it in), under seed 000's workload (section
 * 2.2): on each worker CPU, pinned, a shell loop of `cat /proc/interrupts
 * > /dev/null` in a memory cgroup of its own (cgroup v2, memory.max 1 GiB
 * and memory.swap.max 1 MiB, the seed's slice). A run's figures are the
 * instrument's sums read before and after it, the first taken from the
 * second (no reset: a CPU adding while sums are zeroed would lose its
 * call): each function's on the workers' CPUs, where the loops ran, and
 * drain_all_stock()'s on every CPU. A drain is the seed's: the memory
 * cgroup restarted, whose offline (mem_cgroup_css_offline()) drains the
 * stocks that hold its charges, drain.count of them a run, each after
 * the loops charged the workers' stocks. pcpbench itself waits on a CPU
 * with no loop, where there is one.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../machine/state.h"
#include "instrumented.h"
#include "threads.h"

/* cgroup v2, where a system mounts it */
#define CGROUP_ROOT "/sys/fs/cgroup"
/* the seed's slice: MemoryMax=1G, MemorySwapMax=1M */
#define MEMORY_MAX "1073741824"
#define SWAP_MAX "1048576"
/* how long a memory cgroup's offline, and its drain, may take (a TCG guest is slow) */
#define DRAIN_WAIT_S 30.0
/* how long the loops' last processes may take to leave the cgroup */
#define RMDIR_WAIT_S 10.0
/* a loop's exits that say where its start failed */
enum { LOOP_NO_CGROUP = 121, LOOP_NO_CPU, LOOP_NO_SHELL };

static struct pcb_instrumented_facts facts;

const struct pcb_instrumented_facts *pcb_instrumented_facts(void)
{
	return &facts;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static int stopped(void)
{
	return atomic_load_explicit(&pcb_stop_now, memory_order_relaxed);
}

/* val written to path; 0, or -1 with err */
static int put(const char *path, const char *val, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, val, strlen(val));
	int e = errno;

	if (fd >= 0)
		close(fd);
	if (n == (ssize_t)strlen(val))
		return 0;
	snprintf(err, errlen, "%s: cannot write '%s': %s", path, val, strerror(n < 0 ? e : EIO));
	return -1;
}

/* whether the first line of path has word among its words */
static int has_word(const char *path, const char *word)
{
	char line[512], *tok, *save = NULL;
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, " \n", &save); tok && !found;
		     tok = strtok_r(NULL, " \n", &save))
			found = !strcmp(tok, word);
	fclose(f);
	return found;
}

/* a memory cgroup of its own under cgroup v2's root, as the seed's slice; 0, or -1 with err */
static int cgroup_make(char *dir, size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX + 32];

	if (!has_word(CGROUP_ROOT "/cgroup.controllers", "memory")) {
		snprintf(err, errlen, "no cgroup v2 with the memory controller at %s (mount -t "
			 "cgroup2 none %s; a kernel with CONFIG_MEMCG)", CGROUP_ROOT, CGROUP_ROOT);
		return -1;
	}
	if (!has_word(CGROUP_ROOT "/cgroup.subtree_control", "memory") &&
	    put(CGROUP_ROOT "/cgroup.subtree_control", "+memory", err, errlen) < 0)
		return -1;
	snprintf(dir, len, "%s/pcpbench-%ld", CGROUP_ROOT, (long)getpid());
	if (mkdir(dir, 0755) < 0) {
		snprintf(err, errlen, "%s: %s (run.backend = instrumented makes a memory cgroup: "
			 "root)", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	if (put(path, MEMORY_MAX, err, errlen) == 0) {
		snprintf(path, sizeof(path), "%s/memory.swap.max", dir);
		if (access(path, F_OK) < 0 || put(path, SWAP_MAX, err, errlen) == 0) {
			snprintf(facts.cgroup, sizeof(facts.cgroup), "%s", dir);
			return 0;
		}
	}
	rmdir(dir);
	return -1;
}

/* the cgroup removed, once the loops' last processes have left it; 0, or -1 with err */
static int cgroup_remove(const char *dir, char *err, size_t errlen)
{
	double until = now() + RMDIR_WAIT_S;

	while (rmdir(dir) < 0) {
		if (errno != EBUSY || now() > until) {
			snprintf(err, errlen, "%s: cannot remove it: %s", dir, strerror(errno));
			return -1;
		}
		nap_ms(5);
	}
	return 0;
}

/* the seed's shell, bash, where there is one on PATH; else sh */
static const char *shell(void)
{
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : "/usr/bin:/bin"), *dir, *save = NULL;
	static char found[64];

	snprintf(found, sizeof(found), "/bin/sh");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir; dir = strtok_r(NULL, ":", &save)) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/bash", dir);
		if (strlen(p) < sizeof(found) && access(p, X_OK) == 0) {
			snprintf(found, sizeof(found), "%s", p);
			break;
		}
	}
	free(copy);
	return found;
}

/*
 * The loop on cpu in the cgroup dir: ops iterations, or until killed
 * (ops 0). Its own process group, so that it and the cat it runs are
 * killed together; killed with pcpbench too.
 */
static pid_t loop_start(const char *dir, unsigned int cpu, long ops, char *err, size_t errlen)
{
	pid_t parent = getpid(), pid;

	if (ops > 0)
		snprintf(facts.loop, sizeof(facts.loop), "i=0; while [ $i -lt %ld ]; do cat "
			 "/proc/interrupts > /dev/null; i=$((i + 1)); done", ops);
	else
		snprintf(facts.loop, sizeof(facts.loop), "while :; do cat /proc/interrupts > "
			 "/dev/null; done");
	snprintf(facts.shell, sizeof(facts.shell), "%s", shell());
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		char procs[PATH_MAX + 16];
		cpu_set_t *set = CPU_ALLOC(cpu + 1);
		sigset_t none;
		int fd;

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(LOOP_NO_CGROUP);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		fd = open(procs, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(LOOP_NO_CGROUP);
		close(fd);
		if (!set)
			_exit(LOOP_NO_CPU);
		CPU_ZERO_S(CPU_ALLOC_SIZE(cpu + 1), set);
		CPU_SET_S(cpu, CPU_ALLOC_SIZE(cpu + 1), set);
		if (sched_setaffinity(0, CPU_ALLOC_SIZE(cpu + 1), set) < 0)
			_exit(LOOP_NO_CPU);
		execl(facts.shell, "sh", "-c", facts.loop, (char *)NULL);
		_exit(LOOP_NO_SHELL);
	}
	setpgid(pid, pid);
	return pid;
}

/* why loop on cpu ended as it did, "" where it ran its course or was stopped */
static void loop_status(int st, int killed, unsigned int cpu, char *why, size_t len)
{
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;

	why[0] = 0;
	if (killed || code == 0)
		return;
	if (code == LOOP_NO_CGROUP)
		snprintf(why, len, "the loop on CPU %u could not join its memory cgroup", cpu);
	else if (code == LOOP_NO_CPU)
		snprintf(why, len, "the loop could not be pinned to CPU %u", cpu);
	else if (code == LOOP_NO_SHELL)
		snprintf(why, len, "the loop on CPU %u: cannot run %s", cpu, facts.shell);
	else
		snprintf(why, len, "the loop on CPU %u ended: %s %d", cpu,
			 WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? code : WTERMSIG(st));
}

/*
 * A loop on each of the n CPUs in cgroup dir, ops iterations each or
 * until secs have passed, and every one ended: 0, 1 where a stop cut them
 * short, or -1 with err
 */
static int loops_run(const char *dir, const unsigned int *cpu, int n, long ops, double secs,
		     char *err, size_t errlen)
{
	pid_t *pid = calloc((size_t)n, sizeof(*pid));
	int *st = calloc((size_t)n, sizeof(*st)), *killed = calloc((size_t)n, sizeof(*killed));
	double until = now() + secs;
	int left = 0, rc = 0;

	if (!pid || !st || !killed) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	for (int i = 0; !rc && i < n; i++) {
		pid[i] = loop_start(dir, cpu[i], ops, err, errlen);
		rc = pid[i] < 0 ? -1 : 0;
		left += pid[i] > 0;
	}
	while (left) {
		int stop = rc || stopped() || (ops <= 0 && now() >= until);

		for (int i = 0; i < n; i++) {
			if (pid[i] <= 0)
				continue;
			if (stop && !killed[i]) {
				kill(-pid[i], SIGKILL);
				killed[i] = 1;
			}
			if (waitpid(pid[i], &st[i], WNOHANG) == pid[i]) {
				char why[192];

				pid[i] = 0;
				left--;
				loop_status(st[i], killed[i], cpu[i], why, sizeof(why));
				if (why[0] && !rc) {
					snprintf(err, errlen, "%s", why);
					rc = -1;
				}
			}
		}
		if (left)
			nap_ms(2);
	}
	free(pid);
	free(st);
	free(killed);
	return rc ? rc : stopped();
}

/* drain_all_stock()'s calls on every CPU since boot; -1 with err */
static long long drains_so_far(const char *name, char *err, size_t errlen)
{
	struct pcb_instr_sums s;
	long long calls = 0;
	int f;

	if (pcb_instr_read(&s, err, errlen) < 0)
		return -1;
	f = pcb_instr_fn(&s, name);
	for (int cpu = 0; f >= 0 && cpu < s.nr_cpus; cpu++)
		calls += (long long)pcb_instr_get(&s, cpu, f).calls;
	pcb_instr_sums_free(&s);
	return calls;
}

/*
 * The cgroup removed and its offline's drain_all_stock() waited for, so
 * that no drain of it lands in a later reading: 0, 1 where none came in
 * time (said in res's notes), or -1 with err
 */
static int restart_drain(struct pcb_design_result *res, const char *dir, char *err,
			 size_t errlen)
{
	const char *name = res->sc->model->drain_name;
	long long before = drains_so_far(name, err, errlen), calls = before;
	double until;

	if (before < 0 || cgroup_remove(dir, err, errlen) < 0)
		return -1;
	for (until = now() + DRAIN_WAIT_S; calls == before && now() < until && !stopped();
	     nap_ms(10))
		if ((calls = drains_so_far(name, err, errlen)) < 0)
			return -1;
	if (calls > before || stopped())
		return 0;
	if (!strstr(res->run_note, "offline"))
		pcb_note_append(res->run_note, sizeof(res->run_note), "%s: a memory cgroup's "
				"offline called no %s() within %.0f s", res->label, name,
				DRAIN_WAIT_S);
	return 1;
}

/* the CPUs of the loops, the workers', in order; NULL out of memory */
static unsigned int *worker_cpus(const struct pcb_scenario *sc, int *n)
{
	unsigned int *cpu = calloc((size_t)hwloc_bitmap_weight(sc->workers) + 1, sizeof(*cpu));
	unsigned int c;

	*n = 0;
	if (!cpu)
		return NULL;
	hwloc_bitmap_foreach_begin(c, sc->workers) {
		cpu[(*n)++] = c;
	} hwloc_bitmap_foreach_end();
	return cpu;
}

/* pcpbench on a CPU with no loop, where there is one; the affinity it had in *old */
static void pin_self(const struct pcb_topo *topo, const struct pcb_scenario *sc,
		     struct pcb_design_result *res, cpu_set_t *old)
{
	int cpu = pcb_pick_coord_cpu(topo, sc, res);
	cpu_set_t set;

	sched_getaffinity(0, sizeof(*old), old);
	if (cpu < 0 || cpu >= CPU_SETSIZE || hwloc_bitmap_isset(sc->workers, (unsigned int)cpu))
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* after less before, summed over the n CPUs (all where cpu is NULL) */
static struct pcb_instr_sum delta(const struct pcb_instr_sums *before,
				  const struct pcb_instr_sums *after, const char *name,
				  const unsigned int *cpu, int n, int *most_cpu, int *went_back)
{
	int fa = pcb_instr_fn(after, name), fb = pcb_instr_fn(before, name);
	int nr = cpu ? n : after->nr_cpus;
	struct pcb_instr_sum d = { 0 };
	uint64_t most = 0;

	*most_cpu = -1;
	for (int i = 0; fa >= 0 && i < nr; i++) {
		int c = cpu ? (int)cpu[i] : i;
		struct pcb_instr_sum a = pcb_instr_get(after, c, fa), b = pcb_instr_get(before, c, fb);

		if (a.calls < b.calls || a.cycles < b.cycles || a.contended < b.contended) {
			*went_back = 1;
			continue;
		}
		d.cycles += a.cycles - b.cycles;
		d.calls += a.calls - b.calls;
		d.contended += a.contended - b.contended;
		d.wait_cycles += a.wait_cycles - b.wait_cycles;
		if (a.wait_max > d.wait_max && a.contended > b.contended)
			d.wait_max = a.wait_max;
		if (a.calls - b.calls > most) {
			most = a.calls - b.calls;
			*most_cpu = c;
		}
	}
	return d;
}

/* one function's contention, where the contention instrument counted it */
static void contention_row(struct pcb_design_result *res, const char *fn, int coordinator,
			   const struct pcb_instr_sum *d)
{
	struct pcb_contention_row *row = NULL;

	if (strcmp(res->sc->instr.instrument, "contention"))
		return;
	if (!res->nr_cc)
		pcb_note_append(res->run_note, sizeof(res->run_note), "%s: contention: a wait's "
				"max is the longest since the kernel booted (the instrument's "
				"wait_max), not a run's alone", res->label);
	for (int r = 0; r < res->nr_cc; r++)
		if (!strcmp(res->cc[r].fn, fn))
			row = &res->cc[r];
	if (!row && res->nr_cc < PCB_MAX_CC_ROWS) {
		row = &res->cc[res->nr_cc++];
		snprintf(row->fn, sizeof(row->fn), "%s", fn);
		row->coordinator = coordinator;
	}
	if (!row)
		return;
	row->wait.n += d->contended;
	row->wait.sum += d->wait_cycles;
	if (d->wait_max > row->wait.max)
		row->wait.max = d->wait_max;
}

/* the run's sums into res: each function's on the loops' CPUs, the drain's on every CPU */
static int collect(struct pcb_design_result *res, const struct pcb_instr_sums *before,
		   const struct pcb_instr_sums *after, const unsigned int *cpu, int n, int run,
		   int drains, char *err, size_t errlen)
{
	const struct pcb_model *m = res->sc->model;
	struct pcb_drain_result *dr = &res->drain;
	struct pcb_instr_sum d;
	int most, back = 0;

	for (int f = 0; f < m->nr_fn; f++) {
		struct pcb_fn_result *fr = &res->fn[f];

		d = delta(before, after, m->fn_name[f], cpu, n, &most, &back);
		fr->run_mean[run] = fr->run_sub_mean[run] = fr->run_raw_mean[run] =
			d.calls ? (double)d.cycles / (double)d.calls : 0;
		fr->run_calls[run] = d.calls;
		fr->total.calls += d.calls;
		fr->total.samples += d.calls;
		fr->total.sum_raw += d.cycles;
		if (d.calls)
			contention_row(res, m->fn_name[f], 0, &d);
	}
	d = delta(before, after, m->drain_name, NULL, 0, &most, &back);
	if (back) {
		snprintf(err, errlen, "the instrument's sums went back during the run (a write to "
			 "%s/memcg_stock resets them)", PCB_INSTR_DIR);
		return -1;
	}
	if (drains && d.calls != (uint64_t)drains &&
	    !strstr(res->run_note, "drain_all_stock() calls in a run"))
		pcb_note_append(res->run_note, sizeof(res->run_note), "%s: %llu %s() calls in a run "
				"of %d restarts of its memory cgroup: another cgroup's offline, or "
				"a limit, drained too, and is in the figures", res->label,
				(unsigned long long)d.calls, m->drain_name, drains);
	if (drains) {
		dr->active = 1;
		dr->cpu = most;
		dr->run_mean[run] = d.calls ? (double)d.cycles / (double)d.calls : 0;
		dr->count += d.calls;
		dr->total.calls += d.calls;
		dr->total.samples += d.calls;
		dr->total.sum_raw += d.cycles;
		dr->nr_caches = n;
		dr->nr_online = after->nr_cpus;
		contention_row(res, m->drain_name, 1, &d);
	}
	return 0;
}

/*
 * each worker's CPU, node and the node of its per-CPU data (the kernel's:
 * the CPU's own), and the instrument's empty region: in every figure and
 * not subtracted, as the seed's
 */
static void workers(struct pcb_design_result *res, const struct pcb_topo *topo,
		    const unsigned int *cpu, int n, int run)
{
	double empty = (double)res->sc->instr.empty_median;

	if (empty >= 0)
		res->overhead = empty;
	for (int i = 0; i < n && i < res->nr_workers; i++) {
		const struct pcb_topo_cpu *tc = pcb_topo_cpu(topo, cpu[i]);
		struct pcb_run_overhead *o = &res->ovh[run * res->nr_workers + i];

		if (empty >= 0)
			o->start = o->in_run = o->end = o->subtracted = o->lo = o->hi = empty;
		res->worker[i].cpu = cpu[i];
		res->worker[i].node = tc ? tc->node : -1;
		res->worker[i].cache_node = res->worker[i].node;
		res->worker[i].isolated = hwloc_bitmap_isset(res->sc->isolated, cpu[i]);
	}
}

/*
 * The run's loops and restarts between the two readings: drains restarts
 * of the cgroup, each after the loops' share of the run, or with none the
 * loops alone (the cgroup's own restart, after the reading, waited for):
 * 0, 1 stopped, or -1 with err
 */
static int run_body(struct pcb_design_result *res, char *dir, size_t dirlen,
		    const unsigned int *cpu, int n, int drains, struct pcb_instr_sums *before,
		    struct pcb_instr_sums *after, double *secs_run, char *err, size_t errlen)
{
	const struct pcb_scenario *sc = res->sc;
	int parts = drains ? drains : 1, rc = 0;
	long ops = sc->ops > 0 ? (sc->ops + parts - 1) / parts : 0;
	double secs = (double)sc->duration_ms / 1000 / parts, t;

	if (sc->warmup_ms > 0)
		rc = loops_run(dir, cpu, n, 0, (double)sc->warmup_ms / 1000, err, errlen);
	if (rc || pcb_instr_read(before, err, errlen) < 0)
		return rc ? rc : -1;
	*secs_run = 0;
	for (int i = 0; i < parts && !rc; i++) {
		if (i > 0 && cgroup_make(dir, dirlen, err, errlen) < 0)
			return -1;
		t = now();
		rc = loops_run(dir, cpu, n, ops, secs, err, errlen);
		*secs_run += now() - t;
		if (!rc && drains)
			rc = restart_drain(res, dir, err, errlen) < 0 ? -1 : 0;
	}
	res->ops += rc ? 0 : (uint64_t)ops * (uint64_t)parts * (uint64_t)n;
	if (rc || pcb_instr_read(after, err, errlen) < 0)
		return rc ? rc : -1;
	return drains ? 0 : (restart_drain(res, dir, err, errlen) < 0 ? -1 : 0);
}

int pcb_instrumented_run_design(const struct pcb_topo *topo, const struct pcb_clock *clk,
				struct pcb_design_result *res, int run, char *err, size_t errlen)
{
	const struct pcb_scenario *sc = res->sc;
	struct pcb_instr_sums before = { 0 }, after = { 0 };
	int drains = sc->drain_count > 0 ? (int)sc->drain_count : 0, n, rc;
	unsigned int *cpu = worker_cpus(sc, &n);
	char dir[PATH_MAX], vendor[64];
	struct pcb_platform platform;
	struct pcb_state st;
	const char *host;
	cpu_set_t old;
	double secs = 0;

	(void)clk;
	if (!cpu) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	facts.build = sc->instr;
	facts.emulated = pcb_state_hypervisor(vendor, sizeof(vendor)) &&
			 pcb_state_emulated(vendor);
	host = strcmp(vendor, "none") ? vendor : "bare metal";
	snprintf(facts.booted, sizeof(facts.booted), "%s", host);
	/* under the root the kernel's files are read from (PCPBENCH_SYSROOT) */
	if (pcb_state_init(&st, NULL, dir, sizeof(dir)) == 0) {
		pcb_platform_read(st.root, &platform);
		if (!strcmp(platform.name, "uml"))	/* CPUID is the host's, read natively */
			snprintf(facts.booted, sizeof(facts.booted), "User-mode Linux on host CPUs "
				 "%.24s of %.32s", *platform.host_cpus ? platform.host_cpus : "?",
				 host);
		pcb_state_free(&st);
	}
	if (run == 0)
		snprintf(res->check, sizeof(res->check), "not checked (the kernel's own charges)");
	if (run == 0 && sc->drain_count > 0 && sc->drain_stocks > n)
		pcb_note_append(res->run_note, sizeof(res->run_note), "%s: drain.stocks = %d: the "
				"loops charged the %d CPUs of cpus.workers", res->label,
				sc->drain_stocks, n);
	pin_self(topo, sc, res, &old);
	rc = cgroup_make(dir, sizeof(dir), err, errlen);
	if (rc == 0) {
		rc = run_body(res, dir, sizeof(dir), cpu, n, drains, &before, &after, &secs, err,
			      errlen);
		/* a run cut short or failed leaves no cgroup of its own behind */
		if (rc && access(dir, F_OK) == 0) {
			char e2[256];

			cgroup_remove(dir, e2, sizeof(e2));
		}
	}
	if (rc == 0 && collect(res, &before, &after, cpu, n, run, drains, err, errlen) < 0)
		rc = -1;
	if (rc == 0) {
		workers(res, topo, cpu, n, run);
		/* the loops' own time: not the warm-up, the restarts or the waits for drains */
		res->run_seconds += secs / res->runs;
		res->runs_done++;
		facts.ran = 1;
	}
	sched_setaffinity(0, sizeof(old), &old);
	pcb_instr_sums_free(&before);
	pcb_instr_sums_free(&after);
	free(cpu);
	/* a run a signal cut short is no run: its figures are dropped, as the runner's */
	return rc == 1 ? 0 : rc;
}
