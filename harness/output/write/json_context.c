/* SPDX-License-Identifier: MIT */
/*
 * result.json's context and scenario: the machine as info describes it
 * (topology, TSC, perf), the state check judged, the command, and the
 * scenario's settings as the run read them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "config.h"
#include "../../machine/state.h"
#include "../../measure/counters.h"
#include "../../schema/schema.h"
#include "json_context.h"

/* info's CPU lists (result.json's through the schema's setters) */
static json_t *cpuset_json(hwloc_const_bitmap_t set)
{
	char buf[1024];

	pcb_cpuset_format(set, buf, sizeof(buf));
	return json_string(buf);
}

/* the events pcb_info reports on; only perf_event_open() decides */
static const char *const probe_events[] = {
	"cycles", "instructions", "cache-misses", "branch-misses",
	"task-clock", "context-switches", "cpu-migrations", "page-faults", NULL,
};

static json_t *perf_json(void)
{
	json_t *o = json_object(), *events = json_object();
	char pmu[32];
	int hw = 0, has_pmu = pcb_state_pmu("/", pmu, sizeof(pmu));

	for (int i = 0; probe_events[i]; i++) {
		int rc = pcb_counters_probe(probe_events[i]);

		/* the first four are hardware events: without a PMU there are none to open */
		json_object_set_new(events, probe_events[i], json_string(
				    !rc ? "ok" : i < 4 && rc == -ENOENT && !has_pmu ? "no PMU here" :
				    strerror(-rc)));
		if (!rc && i < 4)
			hw = 1;
	}
	json_object_set_new(o, "hardware_events", json_boolean(hw));
	json_object_set_new(o, "pmu", json_string(pmu));
	json_object_set_new(o, "paranoid", json_integer(pcb_perf_paranoid()));
	json_object_set_new(o, "events", events);
	return o;
}

json_t *pcb_info_json(const struct pcb_topo *topo, const struct pcb_clock *clk)
{
	json_t *o = json_object(), *nodes = json_array(), *tsc = json_object();
	json_t *ovh = json_object(), *res = json_object();
	struct utsname u;

	uname(&u);
	json_object_set_new(o, "host", json_string(u.nodename));
	json_object_set_new(o, "topology", json_string(topo->source));
	json_object_set_new(o, "cpu_model", json_string(topo->cpu_model));
	json_object_set_new(o, "cpus", json_integer(topo->nr_cpus));
	json_object_set_new(o, "cores", json_integer(topo->nr_cores));
	json_object_set_new(o, "numa_nodes", json_integer(topo->nr_nodes));
	for (int i = 0; i < topo->nr_nodes; i++) {
		json_t *n = json_object();

		json_object_set_new(n, "node", json_integer(topo->node[i].os));
		json_object_set_new(n, "cpus", cpuset_json(topo->node[i].cpus));
		json_array_append_new(nodes, n);
	}
	json_object_set_new(o, "nodes", nodes);
	{
		json_t *caches = json_array();

		for (int l = 1; l <= 3; l++) {
			json_t *c;

			if (!topo->cache[l].size)
				continue;
			c = json_object();
			json_object_set_new(c, "level", json_integer(l));
			json_object_set_new(c, "size", json_integer((json_int_t)topo->cache[l].size));
			json_object_set_new(c, "line", json_integer(topo->cache[l].line));
			json_object_set_new(c, "count", json_integer(topo->cache[l].count));
			json_object_set_new(c, "cpus_sharing", json_integer(topo->cache[l].cpus));
			json_array_append_new(caches, c);
		}
		json_object_set_new(o, "caches", caches);
	}
	json_object_set_new(o, "isolated", cpuset_json(topo->isolated));
	json_object_set_new(o, "isolated_source", json_string(topo->isolated_source));
	json_object_set_new(o, "nohz_full", cpuset_json(topo->nohz_full));
	json_object_set_new(o, "kernel", json_string(u.release));

	json_object_set_new(tsc, "hz", json_real(clk->tsc_hz));
	json_object_set_new(tsc, "kernel_hz", clk->kernel_tsc_hz > 0 ? json_real(clk->kernel_tsc_hz)
								     : json_null());
	json_object_set_new(tsc, "kernel_hz_source", json_string(clk->kernel_tsc_source));
	json_object_set_new(tsc, "step", json_integer((json_int_t)clk->step));
	json_object_set_new(tsc, "read_min", json_integer((json_int_t)clk->read_min));
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++) {
		json_t *r = json_object();

		json_object_set_new(ovh, pcb_timing_name(m), json_real(clk->overhead[m]));
		json_object_set_new(r, "mean", json_real(clk->residual[m]));
		json_object_set_new(r, "stddev", json_real(clk->residual_stddev[m]));
		json_object_set_new(res, pcb_timing_name(m), r);
	}
	json_object_set_new(tsc, "timer_overhead", ovh);
	json_object_set_new(tsc, "residual_after_subtraction", res);
	json_object_set_new(o, "tsc", tsc);
	json_object_set_new(o, "perf", perf_json());
	json_object_set_new(o, "version", json_string(PCB_VERSION));
	return o;
}

json_t *pcb_state_json(const struct pcb_state *st)
{
	json_t *a = json_array();
	char buf[1024];

	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];
		json_t *o = json_object();

		rj_set_mst_setting(o, it->setting);
		if (it->cpus) {
			pcb_cpuset_format(it->cpus, buf, sizeof(buf));
			rj_set_mst_cpus(o, buf);
		}
		rj_set_mst_value(o, it->value);
		rj_set_mst_verdict(o, pcb_state_verdict_name(it->verdict));
		if (*it->note)
			rj_set_mst_note(o, it->note);
		rj_set_mst_effect(o, pcb_state_effect(it->setting));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *pcb_platform_json(const struct pcb_platform *p)
{
	json_t *o = json_object();

	rj_set_plat_name(o, p->name);
	if (*p->host)
		rj_set_plat_host(o, p->host);
	if (*p->host_cpus)
		rj_set_plat_host_cpus(o, p->host_cpus);
	if (*p->pinning)
		rj_set_plat_pinning(o, p->pinning);
	return o;
}

json_t *pcb_result_context(const struct pcb_topo *topo, const struct pcb_clock *clk,
			   const char *command, const char *started)
{
	/* the machine as info describes it, under the same names */
	static const enum rj_field from_info[] = {
		RJ_F_ctx_cpu_model, RJ_F_ctx_cpus, RJ_F_ctx_cores, RJ_F_ctx_numa_nodes,
		RJ_F_ctx_nodes, RJ_F_ctx_isolated, RJ_F_ctx_nohz_full,
	};
	json_t *info = pcb_info_json(topo, clk), *o = json_object(), *ovh = json_object();
	struct utsname u;

	uname(&u);
	rj_set_ctx_host(o, u.nodename);
	for (size_t k = 0; k < sizeof(from_info) / sizeof(from_info[0]); k++)
		rj_put(o, from_info[k], json_incref(json_object_get(info, rj_name(from_info[k]))));
	rj_set_ctx_tsc_hz(o, clk->tsc_hz);
	rj_put(o, RJ_F_ctx_kernel_tsc_hz, clk->kernel_tsc_hz > 0 ? json_real(clk->kernel_tsc_hz) :
								  json_null());
	rj_set_ctx_tsc_step(o, (json_int_t)clk->step);
	rj_set_tov_call(ovh, clk->overhead[PCB_TIMING_CALL]);
	rj_set_tov_batch(ovh, clk->overhead[PCB_TIMING_BATCH]);
	rj_set_ctx_timer_overhead(o, ovh);
	rj_set_ctx_kernel(o, u.release);
	rj_set_ctx_version(o, PCB_VERSION);
	rj_set_ctx_command(o, command);
	rj_set_ctx_started(o, started);
	rj_set_ctx_complete(o, 0);
	json_decref(info);
	return o;
}

json_t *pcb_scenario_json(const struct pcb_scenario *sc)
{
	json_t *o = json_object(), *settings = json_object(), *sweep = json_object();
	char key[128], buf[1024], desc[256];

	rj_set_sc_name(o, sc->name);
	rj_set_sc_file(o, sc->file);
	rj_set_sc_text(o, sc->text ? sc->text : "");
	for (int k = 0; k < pcb_nr_keys(); k++) {
		const struct pcb_key *kd = pcb_key_get(k);

		snprintf(key, sizeof(key), "%s.%s", kd->section, kd->name);
		if (sc->sweep[k])
			json_object_set_new(sweep, key, json_string(sc->sweep[k]));
		if (k < K_NR || pcb_model_key(sc->model, k))
			json_object_set_new(settings, key, json_string(sc->value[k]));
	}
	rj_set_sc_settings(o, settings);
	if (json_object_size(sweep))
		rj_set_sc_sweep(o, sweep);
	else
		json_decref(sweep);
	rj_set_sc_model(o, sc->model->name);
	rj_set_sc_drain_function(o, sc->model->drain_name);
	pcb_model_describe(sc->model, sc->config, desc, sizeof(desc));
	rj_set_sc_configuration(o, desc);
	rj_set_sc_baseline(o, sc->baseline->name);
	rj_set_sc_order(o, pcb_order_name[sc->order]);
	rj_set_sc_timing(o, pcb_timing_name((enum pcb_timing)sc->timing));
	rj_set_sc_timer(o, pcb_timer_name((enum pcb_timer)sc->timer));
	rj_set_sc_timer_insns(o, pcb_timer_insns((enum pcb_timer)sc->timer));
	/* the kernel's timer is seed 000's instrument, read as the seed printed it */
	rj_set_sc_means(o, sc->timer == PCB_TIMER_KERNEL ? "raw" : "net");
	pcb_cpuset_format(sc->workers, buf, sizeof(buf));
	rj_set_sc_workers(o, buf);
	return o;
}
