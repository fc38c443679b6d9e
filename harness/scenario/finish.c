/* SPDX-License-Identifier: MIT */
/*
 * From the values as written to the checked settings: every key converted
 * by its declared type and range into its field, then the keys only code
 * can read (names, designs, CPU sets, events), then the checks across keys.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

static void store_long(void *base, const struct pcb_key *key, long v)
{
	char *dst = (char *)base + key->offset;

	if (key->size == sizeof(long)) {
		long x = v;

		memcpy(dst, &x, sizeof(x));
	} else if (key->size == sizeof(int)) {
		int x = (int)v;		/* an unsigned int field takes the same bits */

		memcpy(dst, &x, sizeof(x));
	}
}

/* one typed key, as declared by key, into its field of base */
static int convert(struct pcb_scenario *sc, int k, const struct pcb_key *key, void *base,
		   char *err, size_t errlen)
{
	const char *s = sc->value[k];
	char accepts[256], *end;

	pcb_key_accepts(key, accepts, sizeof(accepts));
	switch (key->type) {
	case PCB_KEY_INT: {
		long v;

		errno = 0;
		v = strtol(s, &end, 10);
		if (!*s || *end || errno) {
			pcb_scenario_key_error(sc, k, err, errlen, "'%s' is not an integer", s);
			return -1;
		}
		if (v < key->min || v > key->max) {
			pcb_scenario_key_error(sc, k, err, errlen, "%ld is out of range (%s)", v,
					       accepts);
			return -1;
		}
		store_long(base, key, v);
		return 0;
	}
	case PCB_KEY_DOUBLE: {
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (!*s || *end || errno || !isfinite(v) || v < key->dmin || v > key->dmax) {
			pcb_scenario_key_error(sc, k, err, errlen, "'%s' is not a number in %s", s,
					       accepts);
			return -1;
		}
		memcpy((char *)base + key->offset, &v, sizeof(v));
		return 0;
	}
	case PCB_KEY_CHOICE:
		for (int i = 0; key->choices[i]; i++)
			if (!strcmp(s, key->choices[i])) {
				store_long(base, key, i);
				return 0;
			}
		pcb_scenario_key_error(sc, k, err, errlen, "'%s' is not one of: %s", s, accepts);
		return -1;
	default:
		return 0;
	}
}

static int get_name(struct pcb_scenario *sc, char *err, size_t errlen)
{
	const char *v = sc->value[K_SCENARIO_NAME];

	if (strlen(v) >= sizeof(sc->name)) {
		pcb_scenario_key_error(sc, K_SCENARIO_NAME, err, errlen, "longer than %zu characters",
				       sizeof(sc->name) - 1);
		return -1;
	}
	for (const char *p = v; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-_.", *p)) {
			pcb_scenario_key_error(sc, K_SCENARIO_NAME, err, errlen,
					       "'%s': use letters, digits, '-', '_' and '.' only", v);
			return -1;
		}
	if (!*v) {
		pcb_scenario_key_error(sc, K_SCENARIO_NAME, err, errlen, "empty");
		return -1;
	}
	/* the result directory's name begins with it: not hidden, not an option */
	if (*v == '.' || *v == '-') {
		pcb_scenario_key_error(sc, K_SCENARIO_NAME, err, errlen, "'%s': begin with a letter, "
				       "a digit or '_' (a name beginning with '%c' makes a result "
				       "directory that %s)", v, *v, *v == '.' ? "plot, ls and LKP "
				       "pass over as hidden" : "commands read as an option");
		return -1;
	}
	snprintf(sc->name, sizeof(sc->name), "%s", v);
	return 0;
}

static int get_model(struct pcb_scenario *sc, char *err, size_t errlen)
{
	char list[256] = "";

	sc->model = pcb_model_find(sc->value[K_RUN_MODEL]);
	if (sc->model) {
		free(sc->config);
		sc->config = calloc(1, sc->model->config.size);
		if (!sc->config) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		return 0;
	}
	for (int i = 0; pcb_models[i]; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 pcb_models[i]->name);
	pcb_scenario_key_error(sc, K_RUN_MODEL, err, errlen, "'%s' is not one of: %s",
			       sc->value[K_RUN_MODEL], list);
	return -1;
}

static int get_designs(struct pcb_scenario *sc, char *err, size_t errlen)
{
	char *copy = strdup(sc->value[K_RUN_DESIGNS]), *save = NULL, *tok;
	const struct pcb_design *const *all = sc->model->designs;
	int rc = 0;

	sc->nr_designs = 0;
	for (tok = strtok_r(copy, ", \t", &save); tok && !rc; tok = strtok_r(NULL, ", \t", &save)) {
		const struct pcb_design *d = pcb_design_find(sc->model, tok);

		if (!d) {
			char list[256] = "";

			for (int i = 0; all[i]; i++)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 i ? ", " : "", all[i]->name);
			pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen,
					       "unknown design '%s' (designs: %s)", tok, list);
			rc = -1;
			break;
		}
		for (int i = 0; i < sc->nr_designs && !rc; i++)
			if (sc->design[i] == d) {
				pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen,
						       "design '%s' listed twice", tok);
				rc = -1;
			}
		if (!rc && sc->nr_designs == PCB_MAX_DESIGNS) {
			pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen, "more than %d designs",
					       PCB_MAX_DESIGNS);
			rc = -1;
		}
		if (!rc)
			sc->design[sc->nr_designs++] = d;
	}
	if (!rc && !sc->nr_designs) {
		pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen, "no design given");
		rc = -1;
	}
	free(copy);
	if (rc)
		return rc;
	sc->baseline = sc->design[0];
	if (*sc->value[K_RUN_BASELINE]) {
		sc->baseline = NULL;
		for (int i = 0; i < sc->nr_designs; i++)
			if (!strcmp(sc->design[i]->name, sc->value[K_RUN_BASELINE]))
				sc->baseline = sc->design[i];
		if (!sc->baseline) {
			pcb_scenario_key_error(sc, K_RUN_BASELINE, err, errlen,
					       "'%s' is not one of run.designs (%s)",
					       sc->value[K_RUN_BASELINE], sc->value[K_RUN_DESIGNS]);
			return -1;
		}
	}
	return 0;
}

/* every typed key of the harness and of the chosen model; other models' keys unset */
static int convert_all(struct pcb_scenario *sc, char *err, size_t errlen)
{
	int n = pcb_nr_keys();

	for (int k = 0; k < n; k++) {
		const struct pcb_key *key = k < K_NR ? pcb_key_get(k) : pcb_model_key(sc->model, k);

		if (!key) {
			if (sc->line[k] != 0) {
				pcb_scenario_key_error(sc, k, err, errlen, "not a key of model %s",
						       sc->model->name);
				return -1;
			}
			continue;
		}
		/* a key the models share takes this model's default */
		if (sc->line[k] == 0 && strcmp(sc->value[k], key->def))
			pcb_scenario_set_value(sc, k, key->def, 0, NULL);
		if (convert(sc, k, key, k < K_NR ? (void *)sc : sc->config, err, errlen) < 0)
			return -1;
	}
	return 0;
}

static int get_counters(struct pcb_scenario *sc, char *err, size_t errlen)
{
	char msg[512];

	if (pcb_counters_parse(sc->value[K_COUNTERS_EVENTS], sc->counters_kernel, &sc->counters,
			       msg, sizeof(msg)) < 0) {
		pcb_scenario_key_error(sc, K_COUNTERS_EVENTS, err, errlen, "%s", msg);
		return -1;
	}
	if (sc->counters_per_call && sc->timing != PCB_TIMING_CALL) {
		pcb_scenario_key_error(sc, K_COUNTERS_PER_CALL, err, errlen,
				       "per-call counter reads need run.timing = call");
		return -1;
	}
	if (sc->counters_per_call && !sc->counters.n) {
		pcb_scenario_key_error(sc, K_COUNTERS_PER_CALL, err, errlen,
				       "no counters.events to read");
		return -1;
	}
	sc->counters.per_call = sc->counters_per_call;
	return 0;
}

/*
 * drain.stocks is how many CPUs hold charges when a drain comes (seed
 * 000's "cpus" column: 1, 8, 128), and every worker's stock does: fewer
 * than the workers runs the first drain.stocks of them, the others idle.
 */
void pcb_scenario_charged_workers(const struct pcb_scenario *sc, hwloc_bitmap_t workers)
{
	int keep = sc->drain_stocks;
	unsigned int cpu;

	if ((sc->drain_rate_hz <= 0 && sc->drain_count <= 0) || keep <= 0)
		return;
	hwloc_bitmap_foreach_begin(cpu, workers) {
		if (keep-- <= 0)
			hwloc_bitmap_clr(workers, cpu);
	} hwloc_bitmap_foreach_end();
}

static int get_cpus(struct pcb_scenario *sc, struct pcb_topo *topo, char *err, size_t errlen)
{
	char msg[512];
	long v;
	char *end;

	if (!strcmp(sc->value[K_DRAIN_CPU], "auto")) {
		sc->drain_cpu = -1;
	} else {
		errno = 0;
		v = strtol(sc->value[K_DRAIN_CPU], &end, 10);
		if (!*sc->value[K_DRAIN_CPU] || *end || errno || v < 0 || v > INT_MAX) {
			pcb_scenario_key_error(sc, K_DRAIN_CPU, err, errlen,
					       "'%s' is not auto or a CPU number",
					       sc->value[K_DRAIN_CPU]);
			return -1;
		}
		if (!hwloc_bitmap_isset(topo->all, (unsigned int)v)) {
			pcb_scenario_key_error(sc, K_DRAIN_CPU, err, errlen, "CPU %ld is not here", v);
			return -1;
		}
		sc->drain_cpu = (int)v;
	}
	if (pcb_topo_set_isolated(topo, sc->value[K_CPUS_ISOLATED], msg, sizeof(msg)) < 0) {
		pcb_scenario_key_error(sc, K_CPUS_ISOLATED, err, errlen, "%s", msg);
		return -1;
	}
	/* this configuration's: a sweep of cpus.isolated sets the topology's in turn */
	if (!sc->isolated)
		sc->isolated = hwloc_bitmap_alloc();
	hwloc_bitmap_copy(sc->isolated, topo->isolated);
	if (!sc->workers)
		sc->workers = hwloc_bitmap_alloc();
	if (pcb_cpuset_parse(topo, sc->value[K_CPUS_WORKERS], sc->workers, msg, sizeof(msg)) < 0) {
		pcb_scenario_key_error(sc, K_CPUS_WORKERS, err, errlen, "%s", msg);
		return -1;
	}
	if (hwloc_bitmap_iszero(sc->workers)) {
		char all[256];

		pcb_cpuset_format(topo->all, all, sizeof(all));
		pcb_scenario_key_error(sc, K_CPUS_WORKERS, err, errlen,
				       "'%s' leaves no CPU (CPUs here: %s)",
				       sc->value[K_CPUS_WORKERS], all);
		return -1;
	}
	if (!sc->workers_asked)
		sc->workers_asked = hwloc_bitmap_alloc();
	hwloc_bitmap_copy(sc->workers_asked, sc->workers);
	pcb_scenario_charged_workers(sc, sc->workers);
	return 0;
}

/* run.runs: a count, or auto (PCB_AUTO_MIN_RUNS, then more until run.ci_target) */
static int get_runs(struct pcb_scenario *sc, char *err, size_t errlen)
{
	const char *v = sc->value[K_RUN_RUNS];
	char *end;
	long n;

	sc->runs_auto = !strcmp(v, "auto");
	if (sc->runs_auto) {
		sc->runs = PCB_AUTO_MIN_RUNS;
		return 0;
	}
	errno = 0;
	n = strtol(v, &end, 10);
	if (!*v || *end || errno) {
		pcb_scenario_key_error(sc, K_RUN_RUNS, err, errlen, "'%s' is not an integer or auto",
				       v);
		return -1;
	}
	if (n < 1 || n > 1000) {
		pcb_scenario_key_error(sc, K_RUN_RUNS, err, errlen, "%ld is out of range (1..1000)",
				       n);
		return -1;
	}
	sc->runs = (int)n;
	return 0;
}

/*
 * The model's rules on each design the scenario runs (the module's own
 * check applies the same to its plan, kmod/plan.c): -1 with the refusal
 * on the key at fault, where it was written
 */
static int apply_rules(const struct pcb_scenario *sc, char *err, size_t errlen)
{
	const struct pcb_model_config *mc = &sc->model->config;
	struct pcb_refusal r;
	int k;

	for (int i = 0; mc->rules && i < sc->nr_designs; i++) {
		if (mc->rules(sc->config, sc->timing, sc->design[i], &r) == 0)
			continue;
		k = r.key == PCB_RULE_TIMING ? K_RUN_TIMING :
		    pcb_key_find(mc->keys[r.key].section, mc->keys[r.key].name);
		if (r.timing_first && pcb_scenario_key_given(sc, K_RUN_TIMING))
			k = K_RUN_TIMING;
		pcb_scenario_key_error(sc, k, err, errlen, "%s", r.msg);
		return -1;
	}
	return 0;
}

int pcb_scenario_finish(struct pcb_scenario *sc, struct pcb_topo *topo, char *err, size_t errlen)
{
	if (get_name(sc, err, errlen) < 0 || get_model(sc, err, errlen) < 0 ||
	    get_designs(sc, err, errlen) < 0 || convert_all(sc, err, errlen) < 0 ||
	    get_runs(sc, err, errlen) < 0 || get_counters(sc, err, errlen) < 0)
		return -1;
	/* a rate whose first drain would come after the run is no rate */
	if (sc->drain_rate_hz > 0 && sc->drain_rate_hz < PCB_DRAIN_MIN_RATE_HZ) {
		pcb_scenario_key_error(sc, K_DRAIN_RATE_HZ, err, errlen, "%g: 0 (no drains) or at "
				       "least %g a second", sc->drain_rate_hz, PCB_DRAIN_MIN_RATE_HZ);
		return -1;
	}
	if (sc->model->config.finish &&
	    sc->model->config.finish(sc->config, sc->timing, sc, err, errlen) < 0)
		return -1;
	if (apply_rules(sc, err, errlen) < 0)
		return -1;
	for (int i = 0; i < sc->nr_designs; i++) {
		const char *why = sc->design[i]->unavailable ? sc->design[i]->unavailable() : NULL;

		if (why) {
			pcb_scenario_key_error(sc, K_RUN_DESIGNS, err, errlen,
					       "%s: not on this machine: %s", sc->design[i]->name, why);
			return -1;
		}
	}
	if (get_cpus(sc, topo, err, errlen) < 0)
		return -1;
	return pcb_scenario_backend(sc, err, errlen);
}
