/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the input as a scenario file. What loads is checked against a
 * synthetic machine of two nodes and eight CPUs, as `run --dry-run` checks
 * it, and a few configurations of its [sweep] are expanded and checked too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/scenario/scenario.h"
#include "harness/scenario/sweep.h"

/* a scenario is a few hundred bytes; longer inputs only slow the search */
#define MAX_TEXT (64 * 1024)
/* configurations of a [sweep] checked per input: the first ones and the last */
#define MAX_CONFIGS 4

static struct pcb_topo topo;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512];

	(void)argc;
	(void)argv;
	if (pcb_topo_load(&topo, "numa:2 core:4 pu:1", err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_scenario: %s\n", err);
		abort();
	}
	return 0;
}

/* finish one configuration on the machine as loaded: no input sees another's isolated set */
static void finish(struct pcb_scenario *sc)
{
	char err[1024];

	if (pcb_topo_set_isolated(&topo, "sysfs", err, sizeof(err)) < 0)
		abort();
	pcb_scenario_finish(sc, &topo, err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pcb_scenario base, sc;
	char err[1024], *text;
	int combos;

	if (size > MAX_TEXT)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	if (pcb_scenario_load_text(&base, "fuzz.scn", text, err, sizeof(err)) == 0) {
		combos = pcb_sweep_combos(&base);
		/* cmd_run stops at a sweep this refuses; its configurations are checked anyway */
		pcb_sweep_check(&base, err, sizeof(err));
		if (combos <= 1) {
			finish(&base);
		} else {
			for (int i = 0; i < MAX_CONFIGS && i < combos; i++) {
				int c = i == MAX_CONFIGS - 1 ? combos - 1 : i;

				if (pcb_scenario_load_text(&sc, "fuzz.scn", base.text, err,
							   sizeof(err)) == 0) {
					pcb_sweep_apply(&sc, c);
					finish(&sc);
				}
				pcb_scenario_free(&sc);
			}
		}
	}
	/* a scenario that failed to load holds what it read so far */
	pcb_scenario_free(&base);
	free(text);
	return 0;
}
