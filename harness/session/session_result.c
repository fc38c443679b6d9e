/* SPDX-License-Identifier: MIT */
/*
 * A scenario's result: the machine's state it ran in (each bad setting
 * warned of), its figures, notes and run order as result.json, its tables
 * on stdout and its directory written.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../machine/aslr.h"
#include "../machine/state.h"
#include "../run/instrumented.h"
#include "../run/kernel.h"
#include "pcb/plan.h"
#include "../output/read/query.h"
#include "../output/result.h"
#include "../output/write/json.h"
#include "../output/write/json_context.h"
#include "../output/write/textout.h"
#include "../schema/schema.h"
#include "exit.h"
#include "session_run.h"

/* each bad setting once a session, however many scenarios it runs */
static void warn_state(struct session_once *once, const struct pcb_state *st)
{
	/* a value read under the root reaches the terminal only through the escape */
	FILE *err = pcb_text_stream(stderr);
	char cpus[512];

	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];
		int seen = 0;

		if (it->verdict != PCB_STATE_BAD)
			continue;
		for (int w = 0; w < once->nr_warned && !seen; w++)
			seen = !strcmp(once->warned[w], it->setting);
		if (seen)
			continue;
		if (once->nr_warned < SESSION_WARNED)
			snprintf(once->warned[once->nr_warned++], sizeof(once->warned[0]), "%s",
				 it->setting);
		cpus[0] = 0;
		if (it->cpus) {
			snprintf(cpus, sizeof(cpus), " on CPU ");
			pcb_cpuset_format(it->cpus, cpus + 8, sizeof(cpus) - 8);
		}
		fprintf(err, "%s: warning: %s%s: %s (%s): figures taken so are untrustworthy "
			"(pcpbench check says why)\n", prog, it->setting, cpus, it->value, it->note);
	}
	if (err != stderr)
		fclose(err);
}

void session_record_state(struct scn_run *r)
{
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_state_opts o = {
		.workers = workers, .tsc_step = r->ss->clk->step, .sample_ms = 100,
		.aslr = pcb_aslr_status(),
	};
	struct pcb_state st;
	char err[PATH_MAX + 64];

	rj_set_ctx_aslr(r->context, *o.aslr ? o.aslr : "not re-executed");
	if (!workers)
		return;
	for (int c = 0; c < r->ncfg; c++)
		hwloc_bitmap_or(workers, workers, r->cfg[c].workers);
	if (pcb_state_read(&st, &o, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: note: %s: the result records no machine state\n",
			r->cfg[0].name, err);
	} else {
		rj_set_ctx_machine_root(r->context, st.root);
		rj_set_ctx_machine_state(r->context, pcb_state_json(&st));
		rj_set_ctx_platform(r->context, pcb_platform_json(&st.platform));
		warn_state(r->ss->once, &st);
		pcb_state_free(&st);
	}
	hwloc_bitmap_free(workers);
}
void session_record_run_load(struct scn_run *r)
{
	hwloc_bitmap_t workers = hwloc_bitmap_alloc();
	struct pcb_load_sample after;
	struct pcb_load_period p = { .before = &r->load, .after = &after, .run = 1,
				     .workers = workers, .seconds = now_s() - r->load_at };
	struct pcb_state st;
	json_t *items, *it;
	char err[PATH_MAX + 64];
	int drains = 0;
	size_t i;

	if (!workers || !r->load.stat || pcb_state_init(&st, NULL, err, sizeof(err)) < 0) {
		hwloc_bitmap_free(workers);
		return;
	}
	for (int c = 0; c < r->ncfg; c++) {
		hwloc_bitmap_or(workers, workers, r->cfg[c].workers);
		drains |= r->cfg[c].drain_rate_hz > 0 || r->cfg[c].drain_count > 0;
	}
	/* busy through the runs: the workers, and the coordinator where one drains */
	p.ours = hwloc_bitmap_weight(workers) + drains;
	pcb_load_sample_take(&after, st.root);
	p.online = pcb_state_stat_cpus(after.stat);
	pcb_state_load_items(&st, &p);
	items = pcb_state_json(&st);
	json_array_foreach(items, i, it)
		json_array_append(rj_ctx_machine_state(r->context), it);
	warn_state(r->ss->once, &st);
	json_decref(items);
	pcb_state_free(&st);
	pcb_load_sample_free(&after);
	hwloc_bitmap_free(workers);
}

/* a note a bad setting of the machine's state, as the run warned */
static void state_notes(json_t *notes, json_t *context)
{
	json_t *it;
	size_t i;

	json_array_foreach(rj_ctx_machine_state(context), i, it) {
		char note[1024];

		if (strcmp(rj_mst_verdict(it), "bad"))
			continue;
		snprintf(note, sizeof(note), "machine state: %s%s%s: %s (%s): figures taken so "
			 "are untrustworthy (see pcpbench check)", rj_mst_setting(it),
			 rj_mst_has_cpus(it) ? " on CPU " : "",
			 rj_mst_has_cpus(it) ? rj_mst_cpus(it) : "", rj_mst_value(it),
			 rj_mst_has_note(it) ? rj_mst_note(it) : "");
		json_array_append_new(notes, json_string(note));
	}
}

/* the booted kernel the instrumented backend timed, and how it was booted */
static void instrumented_json(json_t *context)
{
	const struct pcb_instrumented_facts *f = pcb_instrumented_facts();
	const struct pcb_instr_build *b = &f->build;
	char workload[PATH_MAX + 400];
	json_t *o;

	if (!f->ran)
		return;
	o = json_object();
	rj_set_ibe_variant(o, b->variant);
	rj_set_ibe_release(o, b->release);
	rj_set_ibe_build_id(o, b->build_id);
	rj_set_ibe_series(o, b->series);
	rj_set_ibe_config(o, b->config);
	rj_set_ibe_instrument(o, b->instrument);
	rj_set_ibe_stock_lock(o, b->stock_lock);
	rj_set_ibe_stock_size(o, b->stock_size);
	rj_set_ibe_stock_align(o, b->stock_align);
	rj_set_ibe_stock_offset_in_line(o, b->stock_offset);
	if (b->obj_stock_size >= 0) {
		/* 7.3's instrument: the object stock apart */
		rj_set_ibe_obj_stock_size(o, b->obj_stock_size);
		rj_set_ibe_obj_stock_align(o, b->obj_stock_align);
		rj_set_ibe_obj_stock_offset_in_line(o, b->obj_stock_offset);
	}
	if (b->nr_prims) {
		json_t *prims = json_object();

		/* cycles each: the region's median less the empty one's, over its repeats */
		for (int i = 0; i < b->nr_prims; i++)
			json_object_set_new(prims, b->prim[i].name,
					    json_real((double)(b->prim[i].cycles - b->empty_median) /
						      (double)b->prim_repeat));
		rj_set_ibe_primitives(o, prims);
	}
	rj_set_ibe_booted(o, f->booted);
	rj_set_ibe_emulated(o, f->emulated);
	snprintf(workload, sizeof(workload), "%s -c '%s', pinned to each worker CPU, in a memory "
		 "cgroup (memory.max 1 GiB, memory.swap.max 1 MiB)", f->shell, f->loop);
	rj_set_ibe_workload(o, workload);
	rj_set_ibe_cgroup(o, f->cgroup);
	rj_set_ctx_instrumented(context, o);
}

/* where the designs ran, and the kernel backend's module and kernel, or the instrumented one */
static void backend_json(json_t *context, const struct pcb_scenario *sc)
{
	const struct pcb_kernel_facts *f = pcb_kernel_facts();
	json_t *k;

	rj_set_ctx_backend(context, pcb_backend_name[sc->backend]);
	if (sc->backend == PCB_BACKEND_INSTRUMENTED)
		instrumented_json(context);
	if (sc->backend != PCB_BACKEND_KERNEL || !f->ran)
		return;
	k = json_object();
	rj_set_kbe_module(k, f->module);
	rj_set_kbe_module_source(k, f->module_how);
	rj_set_kbe_build_id(k, f->build_id);
	rj_set_kbe_release(k, f->release);
	rj_set_kbe_tsc_khz(k, (json_int_t)f->tsc_khz);
	rj_set_kbe_preemption(k, f->preemption);
	rj_set_kbe_paravirt_spinlocks(k, !!(f->kconfig & PCB_KCONFIG_PARAVIRT_SPINLOCKS));
	rj_set_kbe_mitigations(k, f->mitigations);
	rj_set_ctx_kernel_backend(context, k);
}

/* the result's JSON: the designs' figures, whether it is complete, its notes, its run order */
static json_t *build_result(struct scn_run *r)
{
	struct pcb_scenario *first = &r->cfg[0];
	json_t *result;

	json_object_set_new(r->context, "complete", json_boolean(r->interrupted < 0));
	backend_json(r->context, first);
	result = pcb_result_build(r->context, first, r->res, r->total);
	if (r->busy[0]) {
		char note[600];

		snprintf(note, sizeof(note), "another pcpbench held CPU %s when this run "
			 "started: its work disturbs these figures", r->busy);
		json_array_append_new(json_object_get(result, "notes"), json_string(note));
	}
	state_notes(json_object_get(result, "notes"), r->context);
	json_object_set_new(result, "run_order", json_pack("{s:s,s:I,s:o}",
		"mode", pcb_order_name[first->order], "seed", (json_int_t)first->seed,
		"runs", r->runs));
	r->runs = NULL;
	if (r->pg->node >= 0)
		json_object_set_new(result, "node", json_integer(r->pg->node));
	return result;
}

/* the result's tables on stdout, unless the session keeps them in the result; -1 if not */
static int print_tables(const struct scn_run *r, json_t *result)
{
	const struct pcb_table_opts *tables = r->ss->tables;
	char err[1024];
	int rc = 0;

	if (tables && pcb_tables_print_opts(stdout, result, tables, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", r->pg->scenario, err);
		rc = -1;
	}
	fflush(stdout);
	return rc;
}

/* the result under the session's directory, or where pg says; -1 if it cannot be */
static int write_result(const struct scn_run *r, json_t *result)
{
	struct progress *pg = r->pg;
	char path[PATH_MAX], err[1024];

	if (pg->result_at)
		snprintf(path, sizeof(path), "%s", pg->result_at);
	if ((pg->result_at ? pcb_result_write_at(result, pg->result_at, err, sizeof(err)) :
	     pcb_result_write(result, r->ss->out, path, sizeof(path), err, sizeof(err))) < 0) {
		fprintf(stderr, "%s: %s\n", pg->scenario, err);
		return -1;
	}
	fprintf(stderr, "%s: result in %s\n", r->cfg[0].name,
		pg->result_name ? pg->result_name : path);
	snprintf(pg->result, sizeof(pg->result), "%s", path);
	return 0;
}

int session_finish_result(struct scn_run *r, int rc)
{
	struct pcb_scenario *first = &r->cfg[0];
	int broken = 0;
	json_t *result, *settled;

	for (int d = 0; d < r->total; d++)
		broken |= r->res[d].check_failed;
	result = build_result(r);
	/* run --raw: the result says so, and every reader reads it as run printed it */
	if (r->ss->tables && r->ss->tables->raw)
		pcb_result_set_raw(result);
	/* printed as written, to the digit report will read back */
	settled = pcb_result_settled(result);
	if (settled) {
		json_decref(result);
		result = settled;
	}
	if (print_tables(r, result) < 0)
		rc = EXIT_RUNTIME;
	if (write_result(r, result) < 0)
		rc = EXIT_RUNTIME;
	if (broken) {
		fprintf(stderr, "%s: the %s was broken (see the notes)\n", first->name,
			first->model->invariant_name);
		rc = EXIT_RUNTIME;
	}
	json_decref(result);
	return rc;
}
