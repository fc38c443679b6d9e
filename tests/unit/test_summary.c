/* SPDX-License-Identifier: MIT */
/*
 * The table of nodes (run --each-node's nodes.csv and nodes.txt) and the
 * figures reproduce reads from a result, on hand-made results: fixtures,
 * not measurements.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/output/present/nodes.h"
#include "harness/output/read/figures.h"
#include "harness/output/write/csv.h"
#include "testing.h"

/* a result of two designs, one function each and a drain, cycles scaled by k */
static json_t *fixture(double k)
{
	return json_pack("{s:{s:s},s:[{s:s,s:s,s:s},{s:s,s:s,s:s}],"
			 "s:[{s:s,s:s,s:s,s:f,s:f,s:i},{s:s,s:s,s:s,s:f,s:f,s:i}],"
			 "s:[{s:s,s:i,s:f,s:f},{s:s,s:i,s:f,s:f}],"
			 "s:[{s:s,s:s,s:s,s:i,s:i},{s:s,s:s,s:s,s:i,s:i}]}",
		"scenario", "drain_function", "drain_all_stock",
		"designs",
		"design", "local_lock stocks=8", "design_name", "local_lock", "config", "stocks=8",
		"design", "spinlock stocks=8", "design_name", "spinlock", "config", "stocks=8",
		"functions",
		"design", "local_lock stocks=8", "function", "consume_stock", "timing", "call",
		"avg_cycles", 10.0 * k, "stddev", 0.5, "calls", 1000,
		"design", "spinlock stocks=8", "function", "consume_stock", "timing", "call",
		"avg_cycles", 20.0 * k, "stddev", 0.25, "calls", 900,
		"drains",
		"design", "local_lock stocks=8", "count", 12, "avg_cycles", 4000.0 * k, "stddev", 10.0,
		"design", "spinlock stocks=8", "count", 0, "avg_cycles", 0.0, "stddev", 0.0,
		"contention",
		"design", "spinlock stocks=8", "function", "consume_stock", "side", "worker",
		"calls", 900, "contended", 3,
		"design", "spinlock stocks=8", "function", "drain_all_stock", "side", "drainer",
		"calls", 12, "contended", 2);
}

static char *print(void (*fn)(FILE *, json_t *const *, const int *, int), json_t *const *r,
		   const int *nodes, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r, nodes, n);
	fclose(f);
	return buf;
}

/* a node's run of one design, two workers: their caches' nodes, the zone's */
static json_t *placed(int a, int b, int zone)
{
	return json_pack("{s:[{s:s,s:s,s:s,s:i,s:[{s:i,s:i},{s:i,s:i}]}]}", "designs",
			 "design", "local_lock", "cache_name", "per_cpu_pages", "target_name", "zone",
			 "target_node", zone, "workers", "node", 3, "cache_node", a, "node", 3,
			 "cache_node", b);
}

/* the placement rows: what move_pages() found on the run's node, a -1 not there */
static void check_memory(void)
{
	json_t *r[2] = { placed(0, 0, 0), placed(3, -1, 1) };
	int nodes[2] = { 0, 3 };
	char *txt = print(pcb_nodes_memory, r, nodes, 2);

	CHECK(strstr(txt, "each worker's per_cpu_pages, each design's zone\n"
		      "node  per_cpu_pages       zone                \n"
		      "0     2 of 2              1 of 1              \n"
		      "3     1 of 2              0 of 1              \n") != NULL, "%s", txt);
	free(txt);
	json_decref(r[0]);
	json_decref(r[1]);
}

/* a drain row's runs, for reproduce's test over the run means; a row without them has none */
static void check_drain_runs(void)
{
	json_t *res = json_pack("{s:[{s:s,s:f,s:[{s:f,s:f},{s:f,s:f},{s:f,s:f}]},{s:s,s:f}]}",
				"drains", "design", "local_lock", "avg_cycles", 90.0, "runs",
				"avg_cycles", 80.0, "avg_cycles_without_wake", 20.0,
				"avg_cycles", 90.0, "avg_cycles_without_wake", 30.0,
				"avg_cycles", 100.0, "avg_cycles_without_wake", 40.0,
				"design", "spinlock", "avg_cycles", 9.0);
	double v[8];
	int n;

	n = pcb_figure_runs(res, "drains:local_lock", v, 8);
	CHECK(n == 3 && v[0] == 80 && v[2] == 100, "%d runs, %g .. %g", n, v[0], v[n > 0 ? n - 1 : 0]);
	n = pcb_figure_runs(res, "drains:local_lock:avg_cycles_without_wake", v, 8);
	CHECK(n == 3 && v[0] == 20 && v[1] == 30 && v[2] == 40, "%d runs without the wake", n);
	CHECK(pcb_figure_runs(res, "drains:local_lock:count", v, 8) == 0, "count has no runs");
	CHECK(pcb_figure_runs(res, "drains:spinlock", v, 8) == 0, "a row written without runs");
	CHECK(pcb_figure_runs(res, "drains:qsbr", v, 8) == 0, "no such row");
	json_decref(res);
}

int main(void)
{
	json_t *r[2] = { fixture(1), fixture(2) };
	int nodes[2] = { 0, 3 };
	char *csv = print(pcb_nodes_csv, r, nodes, 2), *txt = print(pcb_nodes_table, r, nodes, 2);
	char err[256];
	double v;

	CHECK(r[0] && r[1], "fixture");
	CHECK(!strcmp(csv,
		"node,design,config,function,timing,avg_cycles,stddev,calls\n"
		"0,local_lock,stocks=8,consume_stock,call,10.0000,0.5000,1000\n"
		"0,spinlock,stocks=8,consume_stock,call,20.0000,0.2500,900\n"
		"0,local_lock,stocks=8,drain_all_stock,call,4000.0000,10.0000,12\n"
		"3,local_lock,stocks=8,consume_stock,call,20.0000,0.5000,1000\n"
		"3,spinlock,stocks=8,consume_stock,call,40.0000,0.2500,900\n"
		"3,local_lock,stocks=8,drain_all_stock,call,8000.0000,10.0000,12\n"),
	      "nodes.csv:\n%s", csv);
	/* a row per node and function, a column per design; a design that did not drain: - */
	CHECK(strstr(txt, "node  function            local_lock stocks=8  spinlock stocks=8") != NULL,
	      "header:\n%s", txt);
	CHECK(strstr(txt, "\n0     consume_stock:      10.00                20.00") != NULL, "%s", txt);
	CHECK(strstr(txt, "\n3     consume_stock:      20.00                40.00") != NULL, "%s", txt);
	CHECK(strstr(txt, "\n3     drain_all_stock:    8000.00              -") != NULL, "%s", txt);

	/* reproduce's selectors */
	CHECK(pcb_figure_get(r[0], "functions:spinlock stocks=8:consume_stock", &v, err,
			     sizeof(err)) == 0 && v == 20, "%s", err);
	CHECK(pcb_figure_get(r[0], "functions:spinlock stocks=8:consume_stock:calls", &v, err,
			     sizeof(err)) == 0 && v == 900, "%s", err);
	CHECK(pcb_figure_get(r[0], "drains:local_lock stocks=8", &v, err, sizeof(err)) == 0 &&
	      v == 4000, "%s", err);
	CHECK(pcb_figure_get(r[0], "drains:local_lock stocks=8:count", &v, err, sizeof(err)) == 0 &&
	      v == 12, "%s", err);
	CHECK(pcb_figure_get(r[0], "contention:spinlock stocks=8:*", &v, err, sizeof(err)) == 0 &&
	      v == 5, "every function, both sides: %g", v);
	CHECK(pcb_figure_get(r[0], "contention:spinlock stocks=8:consume_stock", &v, err,
			     sizeof(err)) == 0 && v == 3, "%g", v);
	/* a design with no contention row had none */
	CHECK(pcb_figure_get(r[0], "contention:local_lock stocks=8:*", &v, err, sizeof(err)) == 0 &&
	      v == 0, "%g", v);
	CHECK(pcb_figure_get(r[0], "functions:qsbr:consume_stock", &v, err, sizeof(err)) < 0 &&
	      strstr(err, "no such row"), "%s", err);
	CHECK(pcb_figure_get(r[0], "contention:qsbr:*", &v, err, sizeof(err)) < 0, "unknown design");
	CHECK(pcb_figure_get(r[0], "functions:spinlock stocks=8:consume_stock:nope", &v, err,
			     sizeof(err)) < 0 && strstr(err, "no number 'nope'"), "%s", err);
	check_drain_runs();
	check_memory();
	free(csv);
	free(txt);
	json_decref(r[0]);
	json_decref(r[1]);
	return check_summary();
}
