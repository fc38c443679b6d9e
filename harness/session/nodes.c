/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../output/present/nodes.h"
#include "../output/read/load.h"
#include "../output/result.h"
#include "../output/write/csv.h"
#include "exit.h"
#include "nodes.h"
#include "session.h"

int nodes_with_cpus(const struct pcb_topo *topo)
{
	int n = 0;

	for (int i = 0; i < topo->nr_nodes; i++)
		n += !hwloc_bitmap_iszero(topo->node[i].cpus);
	return n;
}

static int node_index(const struct pcb_topo *topo, int os)
{
	for (int i = 0; i < topo->nr_nodes; i++)
		if ((int)topo->node[i].os == os && !hwloc_bitmap_iszero(topo->node[i].cpus))
			return i;
	return -1;
}

/* the first housekeeping CPU of node index i, else -1 */
static int node_hk_cpu(const struct pcb_topo *topo, hwloc_const_bitmap_t isolated, int i)
{
	hwloc_bitmap_t hk = hwloc_bitmap_alloc();
	int cpu;

	hwloc_bitmap_andnot(hk, topo->node[i].cpus, isolated);
	cpu = hwloc_bitmap_iszero(hk) ? -1 : hwloc_bitmap_first(hk);
	hwloc_bitmap_free(hk);
	return cpu;
}

/* the first housekeeping CPU of node index i, else its first CPU */
static int node_cpu(const struct pcb_topo *topo, hwloc_const_bitmap_t isolated, int i)
{
	int cpu = node_hk_cpu(topo, isolated, i);

	return cpu >= 0 ? cpu : hwloc_bitmap_first(topo->node[i].cpus);
}

/*
 * The coordinator's node for a run on node index i: --coordinator-node,
 * else the first node with CPUs; on that node's own run, the first other
 * node with CPUs, as the drainer of seed 000 ran on a housekeeping CPU
 * away from the CPUs it drained.
 */
static int coord_index(const struct pcb_topo *topo, hwloc_const_bitmap_t isolated, int i,
		       int want)
{
	if (want >= 0 && want != i)
		return want;
	/* a node with a housekeeping CPU first: the drainer is no isolated CPU */
	for (int k = 0; k < topo->nr_nodes; k++)
		if (k != i && node_hk_cpu(topo, isolated, k) >= 0)
			return k;
	for (int k = 0; k < topo->nr_nodes; k++)
		if (k != i && !hwloc_bitmap_iszero(topo->node[k].cpus))
			return k;
	return i;
}

/* one node's run: each configuration's workers there and the coordinator's CPU */
struct node_plan {
	int os, coord_cpu, coord_os;
	hwloc_bitmap_t *workers;	/* per configuration */
	int empty;			/* a configuration has no worker there */
};

static void set_node(struct pcb_scenario *sc, int c, void *arg)
{
	struct node_plan *p = arg;
	char list[4096], cpu[16];

	pcb_cpuset_format(p->workers[c], list, sizeof(list));
	pcb_scenario_override(sc, K_CPUS_WORKERS, list, "--each-node");
	snprintf(cpu, sizeof(cpu), "%d", p->coord_cpu);
	pcb_scenario_override(sc, K_DRAIN_CPU, cpu, "--each-node");
}

static void plan_node(const struct pcb_topo *topo, const struct scn_group *g, int i, int want,
		      struct node_plan *p)
{
	p->os = (int)topo->node[i].os;
	/* cpu_is_isolated() as the scenario says, not the topology's last configuration */
	p->coord_cpu = node_cpu(topo, g->cfg[0].isolated,
				coord_index(topo, g->cfg[0].isolated, i, want));
	p->coord_os = pcb_topo_cpu(topo, (unsigned int)p->coord_cpu)->node;
	p->workers = calloc((size_t)g->n, sizeof(*p->workers));
	p->empty = 0;
	for (int c = 0; c < g->n; c++) {
		p->workers[c] = hwloc_bitmap_alloc();
		/* each node's own first drain.stocks, once its run is finished */
		hwloc_bitmap_and(p->workers[c], g->cfg[c].workers_asked, topo->node[i].cpus);
		hwloc_bitmap_clr(p->workers[c], (unsigned int)p->coord_cpu);
		p->empty |= hwloc_bitmap_iszero(p->workers[c]);
	}
}

static void free_plan(struct node_plan *p, int ncfg)
{
	for (int c = 0; c < ncfg; c++)
		hwloc_bitmap_free(p->workers[c]);
	free(p->workers);
}

/* the node's workers as configuration c runs them: drain.stocks may leave some idle */
static hwloc_bitmap_t node_runs(const struct scn_group *g, const struct node_plan *p, int c)
{
	hwloc_bitmap_t w = hwloc_bitmap_dup(p->workers[c]);

	pcb_scenario_charged_workers(&g->cfg[c], w);
	return w;
}

static void print_node(const struct scn_group *g, const struct node_plan *p, int k, int n)
{
	hwloc_bitmap_t first = node_runs(g, p, 0);
	char buf[4096];

	pcb_cpuset_format(first, buf, sizeof(buf));
	printf("node %d (%d/%d): workers %s (%d CPU%s), coordinator CPU %d (node %d)\n", p->os,
	       k + 1, n, buf, hwloc_bitmap_weight(first),
	       hwloc_bitmap_weight(first) == 1 ? "" : "s", p->coord_cpu, p->coord_os);
	for (int c = 1; c < g->n; c++) {
		hwloc_bitmap_t w = node_runs(g, p, c);

		if (!hwloc_bitmap_isequal(w, first)) {
			pcb_cpuset_format(w, buf, sizeof(buf));
			printf("  %s: workers %s (%d CPU%s)\n", g->cfg[c].label, buf,
			       hwloc_bitmap_weight(w), hwloc_bitmap_weight(w) == 1 ? "" : "s");
		}
		hwloc_bitmap_free(w);
	}
	hwloc_bitmap_free(first);
}

/* a node whose run was cut short says so under the table */
static void interrupted_nodes(FILE *f, json_t *const *res, const int *nodes, int k)
{
	for (int i = 0; i < k; i++)
		if (pcb_result_interrupted(res[i]))
			fprintf(f, "node %d: interrupted: its result has only the runs that finished\n",
				nodes[i]);
}

/* nodes.csv and nodes.txt of the nodes that ran: how many, or -1 */
static int write_summary(const char *dir, const struct node_plan *plans, const int *ran, int n)
{
	char path[PATH_MAX], file[PATH_MAX + 16], err[PATH_MAX + 512];
	json_t **res;
	int *nodes, k = 0, rc = 0;
	FILE *f;

	if (n <= 0)
		return -1;
	res = calloc((size_t)n, sizeof(*res));
	nodes = calloc((size_t)n, sizeof(*nodes));
	for (int i = 0; i < n; i++) {
		if (!ran[i])
			continue;
		snprintf(path, sizeof(path), "%s/node%d", dir, plans[i].os);
		/* read back as report reads it: a node's result the schema refuses is left out */
		if (pcb_result_load(path, &res[k], file, sizeof(file), err, sizeof(err)) < 0)
			fprintf(stderr, "%s: %s\n", prog, err);
		else
			nodes[k++] = plans[i].os;
	}
	if (k == 0) {
		rc = -1;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/nodes.csv", dir);
	f = fopen(path, "w");
	if (f) {
		pcb_nodes_csv(f, res, nodes, k);
		rc |= fclose(f);
	} else
		rc = -1;
	snprintf(path, sizeof(path), "%s/nodes.txt", dir);
	f = fopen(path, "w");
	if (f) {
		pcb_nodes_table(f, res, nodes, k);
		pcb_nodes_memory(f, res, nodes, k);
		interrupted_nodes(f, res, nodes, k);
		rc |= fclose(f);
	} else
		rc = -1;
	printf("\n");
	pcb_nodes_table(stdout, res, nodes, k);
	pcb_nodes_memory(stdout, res, nodes, k);
	interrupted_nodes(stdout, res, nodes, k);
	if (rc == 0)
		rc = k;
out:
	for (int i = 0; i < k; i++)
		json_decref(res[i]);
	free(res);
	free(nodes);
	return rc;
}

/* one scenario over the nodes: as written, and each node's plan, configurations and run */
struct node_runs {
	const struct session *ss;
	const char *path;
	struct scn_group base;		/* the scenario as written */
	struct node_plan *plans;	/* one a node asked for */
	struct scn_group *grp;		/* each node's configurations, none if it is empty */
	int *ran;			/* whether the node's run left a result */
	int n, runnable;		/* nodes planned, and those with a worker */
	char tmp[PATH_MAX], final[PATH_MAX];	/* the run directory, and its name once done */
};

/* each node's plan and configurations, their time added to *estimate; exit 2 on a bad one */
static void plan_nodes(struct node_runs *nr, const struct run_opts *o, const struct node_opts *no,
		       double *estimate)
{
	struct pcb_topo *topo = nr->ss->topo;
	char err[1024];
	int want = -1;

	if (group_load(&nr->base, nr->path, o, topo, err, sizeof(err)) < 0)
		die_usage("%s", err);
	if (no->coord_node >= 0)
		want = node_index(topo, no->coord_node);
	nr->plans = calloc((size_t)topo->nr_nodes, sizeof(*nr->plans));
	nr->grp = calloc((size_t)topo->nr_nodes, sizeof(*nr->grp));
	nr->ran = calloc((size_t)topo->nr_nodes, sizeof(*nr->ran));
	for (int i = 0; i < topo->nr_nodes; i++) {
		struct node_plan *p = &nr->plans[nr->n];

		if (hwloc_bitmap_iszero(topo->node[i].cpus))
			continue;
		if (no->node >= 0 && (int)topo->node[i].os != no->node)
			continue;
		plan_node(topo, &nr->base, i, want, p);
		if (!p->empty) {
			struct run_opts on = *o;

			on.hook = set_node;
			on.hook_arg = p;
			if (group_load(&nr->grp[nr->n], nr->path, &on, topo, err, sizeof(err)) < 0)
				die_usage("%s", err);
			*estimate += group_seconds(&nr->grp[nr->n]);
			nr->runnable++;
		}
		nr->n++;
	}
}

/* the plan: each node's workers and coordinator, or that it is skipped */
static void print_plan(const struct node_runs *nr, int each, int dry, double estimate)
{
	const struct scn_group *base = &nr->base;
	int drains = 0;

	for (int c = 0; c < base->n; c++)
		drains |= base->cfg[c].drain_rate_hz > 0 || base->cfg[c].drain_count > 0;
	printf("scenario %s (%s): %s, %d of %d nodes%s\n", base->cfg[0].name, nr->path,
	       each ? "each node" : "one node", nr->n, nodes_with_cpus(nr->ss->topo),
	       drains ? "" : "; no drains: the coordinator's CPU is only kept free");
	for (int k = 0; k < nr->n; k++) {
		if (nr->plans[k].empty)
			printf("node %d (%d/%d): no worker of cpus.workers there; skipped\n",
			       nr->plans[k].os, k + 1, nr->n);
		else
			print_node(base, &nr->plans[k], k, nr->n);
	}
	if (dry && nr->runnable)
		printf("  estimated time: %.0f s\n", estimate);
}

/* each node's run in turn, its result under the run directory; the first exit status not 0 */
static int run_each_node(struct node_runs *nr, double estimate)
{
	struct progress pg = { .node = -1 };
	int rc = 0;

	pg.tty = isatty(2);
	pg.start = now_s();
	pg.estimate = estimate;
	pg.nr_nodes = nr->n;
	for (int k = 0; k < nr->n && rc == 0 && !session_interrupted(); k++) {
		const struct node_plan *p = &nr->plans[k];
		char at[PATH_MAX], name[PATH_MAX];

		if (p->empty) {
			fprintf(stderr, "%s: node %d (%d/%d): no CPU of cpus.workers there; skipped\n",
				nr->base.cfg[0].name, p->os, k + 1, nr->n);
			continue;
		}
		snprintf(at, sizeof(at), "%s/node%d", nr->tmp, p->os);
		pg.node = p->os;
		pg.node_i = k;
		pg.result_at = at;
		snprintf(name, sizeof(name), "%s/node%d", nr->final, p->os);
		pg.result_name = name;
		printf("%snode %d (%d/%d)\n", k ? "\n" : "", p->os, k + 1, nr->n);
		fflush(stdout);
		rc = run_scenario(nr->ss, nr->grp[k].cfg, nr->grp[k].n, &pg);
		nr->ran[k] = pg.result[0] != 0;
	}
	return rc;
}

/* the table of nodes, then the run directory renamed into place: the exit status after rc */
static int finish_run_dir(struct node_runs *nr, int rc)
{
	const char *name = nr->base.cfg[0].name;
	int summarized = write_summary(nr->tmp, nr->plans, nr->ran, nr->n);

	if (summarized < 0) {
		fprintf(stderr, "%s: no node's result to summarize\n", name);
		session_remove_tree(nr->tmp);
		rc = rc ? rc : EXIT_RUNTIME;
	} else if (pcb_tmpdir_seal(nr->tmp), rename(nr->tmp, nr->final) < 0) {
		fprintf(stderr, "%s: rename %s -> %s: %s\n", prog, nr->tmp, nr->final,
			strerror(errno));
		session_remove_tree(nr->tmp);
		rc = EXIT_RUNTIME;
	} else {
		fprintf(stderr, "%s: results of %d of %d nodes in %s\n", name, summarized, nr->n,
			nr->final);
	}
	return rc;
}

/* the nodes' runs in a temporary directory that becomes OUT/<scenario>-<UTC ts>/ */
static int run_nodes(struct node_runs *nr, double estimate)
{
	const char *name = nr->base.cfg[0].name, *out = nr->ss->out;
	char ts[32];

	pcb_utc_timestamp(ts, sizeof(ts), 1);
	snprintf(nr->final, sizeof(nr->final), "%s/%s-%s", out, name, ts);
	snprintf(nr->tmp, sizeof(nr->tmp), "%s/.%s-%s.tmp.%d", out, name, ts, (int)getpid());
	if (pcb_tmpdir_make(nr->tmp) < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, nr->tmp, strerror(errno));
		return EXIT_RUNTIME;
	}
	return finish_run_dir(nr, run_each_node(nr, estimate));
}

/* what plan_nodes() made, freed */
static void free_nodes(struct node_runs *nr)
{
	for (int k = 0; k < nr->n; k++) {
		free_plan(&nr->plans[k], nr->base.n);
		group_free(&nr->grp[k]);
	}
	free(nr->plans);
	free(nr->grp);
	free(nr->ran);
	group_free(&nr->base);
}

int nodes_run(const struct session *ss, const char *path, const struct run_opts *o,
	      const struct node_opts *no, int dry, double *estimate)
{
	struct node_runs nr = { .ss = ss, .path = path };
	int rc = 0;

	plan_nodes(&nr, o, no, estimate);
	if (dry || nr.runnable == 0)
		print_plan(&nr, no->each, dry, *estimate);
	if (nr.runnable == 0) {
		fprintf(stderr, "%s: %s: no node has a CPU of cpus.workers besides the coordinator's\n",
			prog, path);
		rc = EXIT_USAGE;
	} else if (!dry) {
		rc = run_nodes(&nr, *estimate);
	}
	free_nodes(&nr);
	return rc;
}
