/* SPDX-License-Identifier: MIT */
/*
 * A result as the engines that track kernel performance read one, each
 * written from a column list (columns.h):
 *
 *  kv       LKP-tests' stats format, one "name: value" line a figure, names
 *           of [a-z0-9_.] (a program's parse output, which LKP prefixes
 *           with the program's name), a raw result's means as raw_avg_cycles
 *           and raw_stddev, each difference the Diff blocks print
 *           (diff_cycles, diff_pct, its interval, significant), a broken
 *           invariant as a .fail stat
 *  mmtests  one tab-separated row a run mean (function, design, config,
 *           run, cycles, raw where the result is read raw), what an
 *           mmtests extractor reads
 */
#ifndef PCB_OUTPUT_WRITE_KV_H
#define PCB_OUTPUT_WRITE_KV_H

#include <stdio.h>

#include <jansson.h>

void pcb_kv_print(FILE *out, json_t *result);
void pcb_mmtests_print(FILE *out, json_t *result);

#endif
