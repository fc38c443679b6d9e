/* SPDX-License-Identifier: MIT */
/*
 * A configuration for the kernel backend (run.backend = kernel) or the
 * instrumented kernel (run.backend = instrumented): what it cannot run
 * refused by the key at fault, what has no meaning there set to what the
 * kernel does, each change said (scenario.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../measure/tsc.h"
#include "pcb/registry.h"
#include "scenario.h"

void pcb_note_append(char *note, size_t len, const char *fmt, ...)
{
	size_t n = strlen(note);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(note + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(note + n, len - n, fmt, ap);
	va_end(ap);
}

static void note(struct pcb_scenario *sc, const char *text)
{
	pcb_note_append(sc->backend_note, sizeof(sc->backend_note), "%s", text);
}

/*
 * The designs with no kernel meaning refused, or with
 * backend_skip_refused taken out of the configuration, each said
 */
static int refuse_designs(struct pcb_scenario *sc, char *err, size_t errlen)
{
	int n = 0;

	sc->nr_backend_skipped = 0;
	for (int i = 0; i < sc->nr_designs; i++) {
		const struct pcb_design *d = sc->design[i];

		if (!d->kernel_refused) {
			sc->design[n++] = d;
			continue;
		}
		if (!sc->backend_skip_refused) {
			pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen, "%s: not in the kernel "
					       "backend: %s", d->name, d->kernel_refused);
			return -1;
		}
		sc->backend_skipped[sc->nr_backend_skipped++] = d;
		pcb_note_append(sc->backend_note, sizeof(sc->backend_note), "%s: not run: not in "
				"the kernel backend: %s", d->name, d->kernel_refused);
	}
	sc->nr_designs = n;
	for (int i = 0; i < sc->nr_backend_skipped; i++)
		if (sc->baseline == sc->backend_skipped[i])
			sc->baseline = n ? sc->design[0] : NULL;
	return 0;
}

static int refuse(struct pcb_scenario *sc, char *err, size_t errlen)
{
	if (refuse_designs(sc, err, errlen) < 0)
		return -1;
	if (sc->counters_per_call) {
		pcb_scenario_key_error(sc, K_COUNTERS_PER_CALL, err, errlen, "per-call counter "
				       "reads are not in the kernel backend: its workers are "
				       "kthreads, whose counters no rdpmc of this process reads");
		return -1;
	}
	return 0;
}

/* does one of the events count user mode alone? */
static int user_only(const struct pcb_counters_cfg *cfg)
{
	for (int i = 0; i < cfg->n; i++)
		if (cfg->ev[i].attr.exclude_kernel)
			return 1;
	return 0;
}

/*
 * The workers are kthreads: what they do is kernel mode, which their
 * events count (counters.kernel = yes), each resolved again so
 */
static int counters_kernel(struct pcb_scenario *sc, char *err, size_t errlen)
{
	char msg[512];

	if (!sc->counters.n || sc->counters_kernel)
		return 0;
	if (user_only(&sc->counters))
		note(sc, "counters.kernel = no: the kernel backend's workers are kthreads, "
		     "whose events count in kernel mode (counters.kernel yes)");
	sc->counters_kernel = 1;
	if (pcb_counters_parse(sc->value[K_COUNTERS_EVENTS], 1, &sc->counters, msg,
			       sizeof(msg)) < 0) {
		pcb_scenario_key_error(sc, K_COUNTERS_EVENTS, err, errlen, "%s", msg);
		return -1;
	}
	return 0;
}

/*
 * run.backend = instrumented: the kernel's own design, the one its
 * instrument says memcg_stock's lock is, in place of run.designs; call
 * timing by the kernel's rdtsc_ordered(), raw, as the seed's instrument
 * reads; drains by restarting the memory cgroup, drain.count of them a
 * run; no perf counter (the workload is processes the instrument counts
 * in). Each change said.
 */
static int instrumented(struct pcb_scenario *sc, char *err, size_t errlen)
{
	const char *lock = sc->instr.stock_lock, *name;
	const struct pcb_design *d;
	char msg[512];

	if (strcmp(sc->model->name, "memcg")) {
		pcb_scenario_key_error(sc, K_RUN_MODEL, err, errlen, "%s: the instrumented kernel "
				       "times mm/memcontrol.c's stock functions (run.model = memcg)",
				       sc->model->name);
		return -1;
	}
	if (pcb_instr_probe(&sc->instr, msg, sizeof(msg)) < 0) {
		pcb_scenario_key_error(sc, K_RUN_BACKEND, err, errlen, "instrumented: %s", msg);
		return -1;
	}
	/*
	 * The design is the kernel's stock as its instrument describes it: one
	 * stock under a spinlock_t (seed 000's) or a local_lock_t (v6.2 to
	 * 6.15), or, where obj_stock is apart, 7.3's under local_trylock_t or
	 * under rig/series/spinlock-7.3's spinlock_t.
	 */
	if (sc->instr.obj_stock_size >= 0)
		name = !strcmp(lock, "local_trylock_t") ? "local_trylock_7_3" :
		       !strcmp(lock, "spinlock_t") ? "spinlock_7_3" : NULL;
	else
		name = !strcmp(lock, "spinlock_t") ? "spinlock" :
		       !strcmp(lock, "local_lock_t") ? "local_lock" : NULL;
	d = name ? pcb_design_find(sc->model, name) : NULL;
	if (!d) {
		pcb_scenario_key_error(sc, K_RUN_BACKEND, err, errlen, "instrumented: the booted "
				       "kernel's %s is a %s%s, which no design of model memcg takes",
				       pcb_instr_lock_field(&sc->instr), lock,
				       sc->instr.obj_stock_size >= 0 ? " (obj_stock apart)" : "");
		return -1;
	}
	if (sc->counters_per_call) {
		pcb_scenario_key_error(sc, K_COUNTERS_PER_CALL, err, errlen, "per-call counter "
				       "reads are not in the instrumented backend: the instrument "
				       "counts cycles alone");
		return -1;
	}
	if (sc->drain_poisson && sc->drain_rate_hz > 0 && sc->drain_count <= 0) {
		pcb_scenario_key_error(sc, K_DRAIN_ARRIVALS, err, errlen, "poisson: the "
				       "instrumented backend drains by restarting the memory "
				       "cgroup, drain.count times a run");
		return -1;
	}
	/* the others are other kernels': kept apart, as reproduce --with and report merge them */
	sc->nr_backend_skipped = 0;
	for (int i = 0; i < sc->nr_designs; i++)
		if (sc->design[i] != d)
			sc->backend_skipped[sc->nr_backend_skipped++] = sc->design[i];
	/*
	 * A kernel the scenario does not name (7.3's, under seed 000's
	 * scenarios) is its own baseline, so that report of it and another
	 * kernel's result has a Diff block, the first's design the baseline
	 */
	if (sc->nr_backend_skipped == sc->nr_designs)
		sc->baseline = d;
	pcb_note_append(sc->backend_note, sizeof(sc->backend_note), "run.designs: the booted "
			"kernel's own, %s (its %s is a %s: %s)%s", d->name,
			pcb_instr_lock_field(&sc->instr), lock, sc->instr.variant, sc->nr_backend_skipped ? "; the others are other kernels'"
			", whose results report and reproduce --with merge" : "");
	sc->design[0] = d;
	sc->nr_designs = 1;
	if (sc->timing != PCB_TIMING_CALL)
		note(sc, "run.timing = batch: the instrument times every call (timing call)");
	sc->timing = PCB_TIMING_CALL;
	sc->timer = PCB_TIMER_KERNEL;
	if (sc->counters.n)
		note(sc, "counters.events: not counted: the instrument counts the kernel's cycles "
		     "alone");
	sc->counters.n = 0;
	if (sc->drain_rate_hz > 0 && sc->drain_count <= 0) {
		note(sc, "drain.rate_hz: the instrumented backend drains by restarting the memory "
		     "cgroup at the end of a run (drain.count 1)");
		sc->drain_count = 1;
	}
	return 0;
}

int pcb_scenario_backend(struct pcb_scenario *sc, char *err, size_t errlen)
{
	sc->backend_note[0] = 0;
	if (sc->backend == PCB_BACKEND_INSTRUMENTED)
		return instrumented(sc, err, errlen);
	if (sc->backend != PCB_BACKEND_KERNEL)
		return 0;
	if (refuse(sc, err, errlen) < 0)
		return -1;
	if (sc->timer != PCB_TIMER_KERNEL) {
		note(sc, "run.timer = harness: the kernel backend times with the kernel's "
		     "rdtsc_ordered() at both ends (timer kernel)");
		sc->timer = PCB_TIMER_KERNEL;
	}
	if (counters_kernel(sc, err, errlen) < 0)
		return -1;
	if (sc->model->config.kernel) {
		char changed[512] = "";

		sc->model->config.kernel(sc->config, changed, sizeof(changed));
		if (changed[0])
			note(sc, changed);
	}
	return 0;
}
