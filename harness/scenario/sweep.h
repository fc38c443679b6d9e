/* SPDX-License-Identifier: MIT */
/*
 * [sweep] section.key = v1, v2, ...: a scenario expands to one
 * configuration per combination of the swept values.
 */
#ifndef PCB_SCENARIO_SWEEP_H
#define PCB_SCENARIO_SWEEP_H

#include "scenario.h"

/* a swept value's longest spelling */
#define PCB_SWEEP_VALUE_LEN 128

/* configurations the scenario's [sweep] expands to (1 without one) */
int pcb_sweep_combos(const struct pcb_scenario *sc);
/*
 * The same, checked: no value twice or empty, at most PCB_MAX_CONFIGS
 * configurations (counted without overflow), every label whole. The count,
 * or -1 with FILE:LINE: sweep.section.key: why.
 */
int pcb_sweep_check(const struct pcb_scenario *sc, char *err, size_t errlen);
/*
 * Apply combination `index` of the sweep to sc (freshly loaded, before
 * finish): its values become overrides named by their [sweep] line, and
 * sc->label says which.
 */
void pcb_sweep_apply(struct pcb_scenario *sc, int index);

#endif
