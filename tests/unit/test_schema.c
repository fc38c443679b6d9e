/* SPDX-License-Identifier: MIT */
/*
 * result.json's schema (harness/schema/schema.def): the one error path
 * names a missing or mistyped field by its JSON path; a field renamed is
 * read under its old key where the new one is absent and written under
 * the new one; the table declares each field once.
 */
#include <string.h>

#include "testing.h"
#include "../../harness/output/read/load.h"
#include "../../harness/schema/schema.h"

/* the smallest result the schema takes: a design, a function row with one run */
static json_t *minimal(void)
{
	return json_pack("{s:s,s:{s:f},s:{s:s},s:[{s:s,s:s}],"
			 "s:[{s:s,s:s,s:f,s:f,s:i,s:[{s:f}]}],s:[]}",
		"format", PCB_RESULT_FORMAT, "context", "tsc_hz", 2.6e9,
		"scenario", "name", "unit",
		"designs", "design", "local_lock", "design_name", "local_lock",
		"functions", "design", "local_lock", "function", "consume_stock",
		"avg_cycles", 52.0, "stddev", 2.0, "calls", 300, "runs", "avg_cycles", 52.0,
		"drains");
}

/* rj_check() on doc: its message, or "" when it passes */
static const char *check(json_t *doc, char *err, size_t len)
{
	if (pcb_result_check(doc, err, len) == 0)
		snprintf(err, len, "%s", "");
	return err;
}

static void test_error_path(void)
{
	json_t *r = minimal(), *dj, *fj;
	char err[512];

	CHECK(!strcmp(check(r, err, sizeof(err)), ""), "minimal result refused: %s", err);

	/* a required field missing: its path, "missing" */
	dj = json_array_get(json_object_get(r, "designs"), 0);
	json_object_set_new(dj, "design", json_integer(1));
	json_object_del(dj, "design_name");
	CHECK(!strcmp(check(r, err, sizeof(err)),
		      "designs[0].design: missing or not a string"), "%s", err);
	json_object_set_new(dj, "design", json_string("local_lock"));

	/* the older form, before design_name: the name taken from the label */
	CHECK(!strcmp(check(r, err, sizeof(err)), ""), "no design_name: %s", err);
	CHECK(!strcmp(json_string_value(json_object_get(dj, "design_name")), "local_lock"),
	      "design_name of an older result");
	json_object_set_new(dj, "design", json_string("local_lock slots=7"));
	json_object_del(dj, "design_name");
	check(r, err, sizeof(err));
	CHECK(!strcmp(json_string_value(json_object_get(dj, "design_name")), "local_lock"),
	      "design_name of an older sweep's row");
	json_object_set_new(dj, "design", json_string("local_lock"));

	/* a required figure of the wrong type: never read as 0 */
	fj = json_array_get(json_object_get(r, "functions"), 0);
	json_object_set_new(fj, "avg_cycles", json_string("abc"));
	CHECK(!strcmp(check(r, err, sizeof(err)),
		      "functions[0].avg_cycles: missing or not a number"), "%s", err);
	json_object_set_new(fj, "avg_cycles", json_real(52));

	/* a run of a row, two levels down */
	json_object_set_new(json_array_get(json_object_get(fj, "runs"), 0), "avg_cycles",
			    json_true());
	CHECK(!strcmp(check(r, err, sizeof(err)),
		      "functions[0].runs[0].avg_cycles: missing or not a number"), "%s", err);
	json_object_set_new(json_array_get(json_object_get(fj, "runs"), 0), "avg_cycles",
			    json_real(52));

	/* an optional field may be absent, but present it has its type */
	json_object_set_new(fj, "p99", json_real(9.5));
	CHECK(!strcmp(check(r, err, sizeof(err)), "functions[0].p99: not an integer"), "%s", err);
	json_object_del(fj, "p99");
	json_object_set_new(json_object_get(r, "context"), "timer_overhead",
			    json_pack("{s:s}", "call", "thirty"));
	CHECK(!strcmp(check(r, err, sizeof(err)), "context.timer_overhead.call: not a number"),
	      "%s", err);
	json_object_del(json_object_get(r, "context"), "timer_overhead");

	/* a row that is not an object */
	json_array_append_new(json_object_get(r, "drains"), json_integer(3));
	CHECK(!strcmp(check(r, err, sizeof(err)), "drains[0]: not an object"), "%s", err);
	json_array_clear(json_object_get(r, "drains"));

	/* a renamed field is checked under its old key too, and named as the file has it */
	json_object_set_new(dj, "charge_invariant", json_integer(1));
	CHECK(!strcmp(check(r, err, sizeof(err)), "designs[0].charge_invariant: not a string"),
	      "%s", err);
	json_object_del(dj, "charge_invariant");

	/* a figure a model's block reads (memcg's hit rate), named by its path */
	json_object_set_new(dj, "events", json_pack("{s:s,s:i,s:f}", "hit_rate", "high",
						    "stock_misses", 3, "atomics_per_charge", 1.5));
	CHECK(!strcmp(check(r, err, sizeof(err)),
		      "designs[0].events.hit_rate: missing or not a number"), "%s", err);
	json_object_set_new(json_object_get(dj, "events"), "hit_rate", json_real(0.9));
	json_object_del(json_object_get(dj, "events"), "stock_misses");
	CHECK(!strcmp(check(r, err, sizeof(err)),
		      "designs[0].events.stock_misses: missing or not an integer"), "%s", err);
	json_object_del(dj, "events");

	/* a field a later pcpbench adds is no error to this one */
	json_object_set_new(dj, "noise_cv", json_real(0.01));
	CHECK(!strcmp(check(r, err, sizeof(err)), ""), "an unknown field refused: %s", err);
	json_decref(r);
}

static void test_old_keys(void)
{
	json_t *dj = json_pack("{s:s,s:s,s:i,s:i}", "design", "spinlock", "charge_invariant", "ok",
			       "stock_bytes", 48, "failed_charges", 2);
	json_t *drain = json_pack("{s:s,s:i}", "design", "spinlock", "stocks", 128);
	json_t *worker = json_pack("{s:i}", "stock_node", 1);

	/* read under the old key where the new one is absent */
	CHECK(!strcmp(rj_design_invariant(dj), "ok"), "%s", rj_design_invariant(dj));
	CHECK(rj_design_cache_bytes(dj) == 48, "cache_bytes");
	CHECK(rj_design_failed(dj) == 2, "failed");
	CHECK(rj_drain_caches(drain) == 128, "caches");
	CHECK(rj_worker_cache_node(worker) == 1, "cache_node");
	CHECK(rj_design_has_invariant(dj) && !rj_design_has_invariant_name(dj), "has");
	/* a claim's selector may name a field by its old name */
	CHECK(rj_find(RJ_K_drain, "stocks") == RJ_F_drain_caches, "find old");
	CHECK(rj_find(RJ_K_drain, "caches") == RJ_F_drain_caches, "find new");
	CHECK(rj_find(RJ_K_fn, "caches") < 0, "another kind's field");

	/* the new key wins, and writing drops the old one */
	json_object_set_new(dj, "invariant", json_string("broken"));
	CHECK(!strcmp(rj_design_invariant(dj), "broken"), "new key first");
	rj_set_drain_caches(drain, 16);
	CHECK(!json_object_get(drain, "stocks") &&
	      json_integer_value(json_object_get(drain, "caches")) == 16, "setter renames");

	/* an absent field reads as the tables always printed it */
	CHECK(!strcmp(rj_design_work_delivery(dj), "?") && rj_design_runs(dj) == 0 &&
	      rj_design_work(dj) == NULL, "absent");
	json_decref(dj);
	json_decref(drain);
	json_decref(worker);
}

/* each field once in its object, and no old key another field's name */
static void test_table(void)
{
	for (int f = 0; f < RJ_F_NR; f++)
		for (int g = 0; g < RJ_F_NR; g++) {
			const struct rj_field_info *a = &rj_fields[f], *b = &rj_fields[g];

			if (f == g || a->kind != b->kind)
				continue;
			CHECK(strcmp(a->name, b->name), "%s.%s twice", rj_kind_name[a->kind], a->name);
			CHECK(!a->old || strcmp(a->old, b->name), "%s.%s: old key %s is %s's",
			      rj_kind_name[a->kind], a->name, a->old, b->name);
		}
	for (int f = 0; f < RJ_F_NR; f++) {
		int nests = rj_fields[f].type == RJ_NEST || rj_fields[f].type == RJ_ROWS;

		CHECK(nests == (rj_fields[f].rows != RJ_K_none), "%s.%s: rows",
		      rj_kind_name[rj_fields[f].kind], rj_fields[f].name);
	}
}

int main(void)
{
	test_error_path();
	test_old_keys();
	test_table();
	return check_summary();
}
