/* SPDX-License-Identifier: MIT */
/*
 * check: the machine's state that moves figures, each setting with its
 * value and what it does to a figure, as pyperf's `system show` prints
 * it; exit 1 where one makes figures untrustworthy, as lockhammer refuses
 * to run under cpufreq scaling.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../machine/state.h"
#include "../measure/tsc.h"
#include "../output/write/textout.h"
#include "../scenario/scenario.h"
#include "cli.h"

#define CHECK_INDENT 34
#define CHECK_WIDTH 100

/* text from column CHECK_INDENT, folded at CHECK_WIDTH between words, never inside one */
static void print_folded(FILE *out, const char *text)
{
	int room = CHECK_WIDTH - CHECK_INDENT;

	while (*text) {
		int n = (int)strlen(text), cut = n;

		if (n > room) {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			/* a path longer than the room is printed whole */
			if (!cut)
				cut = (int)strcspn(text, " ");
		}
		fprintf(out, "%*s%.*s\n", CHECK_INDENT, "", cut, text);
		text += cut;
		text += strspn(text, " ");
	}
}

/* a CPU list as long as the set: hundreds of CPUs do not fit a line's buffer */
static char *cpus_string(hwloc_const_bitmap_t set)
{
	char *s = pcb_cpuset_string(set);

	if (!s) {
		fprintf(stderr, "%s: check: out of memory\n", prog);
		exit(EXIT_RUNTIME);
	}
	return s;
}

static void print_item(FILE *out, const struct pcb_state_item *it, int first_of_setting)
{
	char *cpus = it->cpus ? cpus_string(it->cpus) : NULL;

	fprintf(out, "  %-22s %-8s %s%s%s%s\n", first_of_setting ? it->setting : "",
	       pcb_state_verdict_name(it->verdict), cpus ? "CPU " : "", cpus ? cpus : "",
	       cpus ? ": " : "", it->value);
	free(cpus);
	if (*it->note)
		print_folded(out, it->note);
}

static void print_state(FILE *out, const struct pcb_state *st, hwloc_const_bitmap_t workers)
{
	char *list = cpus_string(workers);
	int bad = 0;

	fprintf(out, "Machine state for workers on CPU %s, read under %s\n\n", list, st->root);
	free(list);
	fprintf(out, "  %-22s %-8s %s\n", "setting", "verdict", "value");
	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];
		int first = !i || strcmp(st->item[i - 1].setting, it->setting);
		int last = i + 1 == st->nr || strcmp(st->item[i + 1].setting, it->setting);

		print_item(out, it, first);
		if (last) {
			char effect[512];

			snprintf(effect, sizeof(effect), "does: %s", pcb_state_effect(it->setting));
			print_folded(out, effect);
		}
	}
	fprintf(out, "\n");
	for (int i = 0; i < st->nr; i++) {
		const struct pcb_state_item *it = &st->item[i];

		if (it->verdict != PCB_STATE_BAD)
			continue;
		if (!bad++)
			fprintf(out, "untrustworthy here:");
		fprintf(out, "%s %s %s", bad > 1 ? "," : "", it->setting, it->value);
		if (it->cpus) {
			list = cpus_string(it->cpus);
			fprintf(out, " (CPU %s)", list);
			free(list);
		}
	}
	if (bad)
		fprintf(out, "\n");
	else
		fprintf(out, "nothing here makes figures untrustworthy\n");
}

/* --cpus resolved on the topology, as cpus.workers is; exit 2 on a bad one or none */
static void parse_workers(struct pcb_topo *topo, const char *expr, hwloc_bitmap_t workers)
{
	char err[512];

	if (pcb_cpuset_parse(topo, expr, workers, err, sizeof(err)) < 0) {
		pcb_topo_destroy(topo);
		die_usage("check: --cpus %s", err);
	}
	if (!hwloc_bitmap_iszero(workers))
		return;
	/* cpus.workers' default leaves no CPU on a machine of one: check them all */
	if (!strcmp(expr, pcb_harness_keys[K_CPUS_WORKERS].def)) {
		hwloc_bitmap_copy(workers, topo->all);
		return;
	}
	pcb_topo_destroy(topo);
	die_usage("check: --cpus '%s' leaves no CPU", expr);
}

int cmd_check(int argc, char **argv, const struct cli_ctx *ctx)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *expr = pcb_harness_keys[K_CPUS_WORKERS].def;
	struct pcb_state_opts so = { .sample_ms = 200 };
	hwloc_bitmap_t workers;
	struct pcb_state st;
	struct pcb_topo topo;
	struct pcb_clock clk;
	char err[PATH_MAX + 64];
	FILE *out;
	int c, bad;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': expr = optarg; break;
		case 'h': fputs(check_usage, stdout); return 0;
		default: die_usage("check: see pcpbench check --help");
		}
	}
	if (optind < argc)
		die_usage("check: unknown argument '%s' (see pcpbench check --help)", argv[optind]);
	load_topology(&topo, ctx->topo_spec);
	workers = hwloc_bitmap_alloc();
	if (!workers) {
		pcb_topo_destroy(&topo);
		fprintf(stderr, "%s: check: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	parse_workers(&topo, expr, workers);
	so.workers = workers;
	/* the TSC step is this machine's, whatever the root */
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	so.tsc_step = clk.step;
	if (pcb_state_read(&st, &so, err, sizeof(err)) < 0) {
		hwloc_bitmap_free(workers);
		pcb_topo_destroy(&topo);
		die_usage("check: %s", err);
	}
	/* what the root's files hold reaches the terminal only through the escape */
	out = pcb_text_stream(stdout);
	print_state(out, &st, workers);
	if (out != stdout)
		fclose(out);
	bad = pcb_state_nr_bad(&st);
	pcb_state_free(&st);
	hwloc_bitmap_free(workers);
	pcb_topo_destroy(&topo);
	return bad ? EXIT_RUNTIME : 0;
}
