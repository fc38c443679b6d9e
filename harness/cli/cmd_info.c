/* SPDX-License-Identifier: MIT */
/*
 * The commands that describe: info (the machine), list (models, designs,
 * workloads, keys) and cpus (CPU-set expressions).
 */
#include <stdio.h>
#include <string.h>

#include "../machine/state.h"
#include "../output/write/json_context.h"
#include "../output/write/textout.h"
#include "cli.h"

/* the hypervisor's vendor, and whether it emulates the CPU (QEMU's TCG) */
static int hypervisor(char *buf, size_t len)
{
	pcb_state_hypervisor(buf, len);
	return pcb_state_emulated(buf);
}


static void print_info(FILE *out, const struct pcb_topo *topo, const struct pcb_clock *clk)
{
	json_t *info = pcb_info_json(topo, clk);
	json_t *perf = json_object_get(info, "perf"), *events = json_object_get(perf, "events");
	const char *name;
	json_t *v;
	char buf[1024], pmu[32];

	fprintf(out, "Test System\n");
	fprintf(out, "  host:             %s\n", json_string_value(json_object_get(info, "host")));
	if (topo->synthetic)
		fprintf(out, "  topology:         %s (not this machine)\n", topo->source);
	fprintf(out, "  CPU model:        %s\n", topo->cpu_model);
	fprintf(out, "  CPUs:             %d (%d cores)\n", topo->nr_cpus, topo->nr_cores);
	fprintf(out, "  NUMA nodes:       %d\n", topo->nr_nodes);
	for (int i = 0; i < topo->nr_nodes; i++) {
		pcb_cpuset_format(topo->node[i].cpus, buf, sizeof(buf));
		fprintf(out, "    node%-3u         %s\n", topo->node[i].os, buf);
	}
	for (int l = 1; l <= 3; l++)
		if (topo->cache[l].size)
			fprintf(out, "  L%d%s cache:        %llu KiB, %u-byte lines, %d of them, each shared by %d CPU%s\n",
			       l, l == 1 ? "d" : " ", topo->cache[l].size / 1024, topo->cache[l].line,
			       topo->cache[l].count, topo->cache[l].cpus, topo->cache[l].cpus == 1 ? "" : "s");
	pcb_cpuset_format(topo->isolated, buf, sizeof(buf));
	fprintf(out, "  isolated CPUs:    %s (%s)\n", buf, topo->isolated_source);
	pcb_cpuset_format(topo->nohz_full, buf, sizeof(buf));
	fprintf(out, "  nohz_full CPUs:   %s\n", buf);
	fprintf(out, "  kernel:           %s\n", json_string_value(json_object_get(info, "kernel")));
	if (hypervisor(buf, sizeof(buf)))
		fprintf(out, "  hypervisor:       %s: emulated, its figures are functional, never "
		       "timings\n", buf);
	else
		fprintf(out, "  hypervisor:       %s\n", buf);
	fprintf(out, "  TSC frequency:    %.3f MHz calibrated against CLOCK_MONOTONIC_RAW", clk->tsc_hz / 1e6);
	if (clk->kernel_tsc_hz > 0)
		fprintf(out, "; kernel: %.3f MHz (%s)\n", clk->kernel_tsc_hz / 1e6, clk->kernel_tsc_source);
	else
		fprintf(out, "; kernel's figure unknown\n");
	fprintf(out, "  TSC step:         %llu cycle(s) (gcd of increments); back-to-back read %llu "
	       "cycles\n",
	       (unsigned long long)clk->step, (unsigned long long)clk->read_min);
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++)
		fprintf(out, "  empty region %-5s %.2f cycles (lfence;rdtsc .. rdtscp;lfence, per %s); "
		       "after subtraction %+.2f +/- %.2f\n", pcb_timing_name(m),
		       clk->overhead[m], m == PCB_TIMING_CALL ? "call" : "batch",
		       clk->residual[m], clk->residual_stddev[m]);
	if (!pcb_state_pmu("/", pmu, sizeof(pmu)))
		fprintf(out, "  perf events:      no PMU here (no CPU PMU in "
		       "/sys/bus/event_source/devices): software events only; paranoid %d\n",
		       pcb_perf_paranoid());
	else
		fprintf(out, "  perf events:      hardware %s on PMU %s (paranoid %d)\n",
		       json_is_true(json_object_get(perf, "hardware_events")) ? "available" :
		       "not available", pmu, pcb_perf_paranoid());
	json_object_foreach(events, name, v)
		fprintf(out, "    %-16s %s\n", name, json_string_value(v));
	json_decref(info);
}

int cmd_info(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct pcb_topo topo;
	struct pcb_clock clk;
	int as_json = 0;

	if (wants_help(argc, argv, info_usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			as_json = 1;
		else
			die_usage("info: unknown argument '%s' (see pcpbench info --help)", argv[i]);
	}
	load_topology(&topo, ctx->topo_spec);
	pcb_clock_calibrate(&clk, CALIBRATE_MS);
	if (as_json) {
		json_t *info = pcb_info_json(&topo, &clk);

		json_dumpf(info, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		printf("\n");
		json_decref(info);
	} else {
		/* the hypervisor's name (PCPBENCH_HYPERVISOR) and the root's files through the escape */
		FILE *out = pcb_text_stream(stdout);

		print_info(out, &topo, &clk);
		if (out != stdout)
			fclose(out);
	}
	pcb_topo_destroy(&topo);
	return 0;
}


int cmd_cpus(int argc, char **argv, const struct cli_ctx *ctx)
{
	struct pcb_topo topo;
	hwloc_bitmap_t set;
	const char *isolated = "sysfs";
	char err[512], buf[1024];
	int n = 0;

	if (wants_help(argc, argv, cpus_usage))
		return 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--isolated")) {
			n++;
			continue;
		}
		if (++i >= argc)
			die_usage("cpus: --isolated needs a CPU list");
		isolated = argv[i];
	}
	if (!n)
		die_usage("cpus: no expression given (see pcpbench cpus --help)");
	load_topology(&topo, ctx->topo_spec);
	if (pcb_topo_set_isolated(&topo, isolated, err, sizeof(err)) < 0) {
		pcb_topo_destroy(&topo);
		die_usage("cpus: --isolated %s", err);
	}
	set = hwloc_bitmap_alloc();
	if (!set) {
		pcb_topo_destroy(&topo);
		fprintf(stderr, "%s: cpus: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--isolated")) {
			i++;
			continue;
		}
		if (pcb_cpuset_parse(&topo, argv[i], set, err, sizeof(err)) < 0) {
			hwloc_bitmap_free(set);
			pcb_topo_destroy(&topo);
			die_usage("cpus: %s", err);
		}
		pcb_cpuset_format(set, buf, sizeof(buf));
		printf("%s\t%s\t(%d CPUs)\n", argv[i], buf, hwloc_bitmap_weight(set));
	}
	if (hypervisor(buf, sizeof(buf)))
		fprintf(stderr, "%s: note: these CPUs are emulated (%s): what runs on them is "
			"functional, never a timing\n", prog, buf);
	hwloc_bitmap_free(set);
	pcb_topo_destroy(&topo);
	return 0;
}

/* one key: section.key, help, what it accepts and its default */
static void list_key(const struct pcb_key *k)
{
	char key[64], accepts[256];

	snprintf(key, sizeof(key), "%s.%s", k->section, k->name);
	pcb_key_accepts(k, accepts, sizeof(accepts));
	printf("    %-24s %s%s%s%s (%s)\n", key, k->help, accepts[0] ? " [" : "", accepts,
	       accepts[0] ? "]" : "", *k->def ? k->def : "none");
}

int cmd_list(int argc, char **argv, const struct cli_ctx *ctx)
{
	if (wants_help(argc, argv, list_usage))
		return 0;
	if (argc > 1)
		die_usage("list: unknown argument '%s'", argv[1]);
	printf("harness keys (default):\n");
	for (int k = 0; k < K_NR; k++)
		list_key(&pcb_harness_keys[k]);
	for (int i = 0; pcb_models[i]; i++) {
		const struct pcb_model *m = pcb_models[i];

		printf("\nmodel %s: %s\n", m->name, m->summary);
		printf("  designs:\n");
		for (int d = 0; m->designs[d]; d++) {
			char own[256] = "";

			/* what a setting that defaults to the design's kernel gives it */
			if (m->config.describe_design) {
				snprintf(own, sizeof(own), "; ");
				m->config.describe_design(NULL, m->designs[d], own + 2,
							  sizeof(own) - 2);
			}
			printf("    %-22s %s [%s]; drained: %s%s\n", m->designs[d]->name,
			       m->designs[d]->summary, m->designs[d]->follows, m->designs[d]->promise,
			       own);
		}
		printf("  workloads:\n");
		for (int w = 0; w < m->nr_workloads; w++)
			printf("    %-22s %s\n", m->workloads[w].name, m->workloads[w].summary);
		printf("  functions: ");
		for (int f = 0; f < m->nr_fn; f++)
			printf("%s%s", f ? ", " : "", m->fn_name[f]);
		printf("\n  keys (default):\n");
		for (int k = 0; k < m->config.nr_keys; k++)
			list_key(&m->config.keys[k]);
	}
	return 0;
}
