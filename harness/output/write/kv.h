/* SPDX-License-Identifier: MIT */
/*
 * A result as the engines that track kernel performance read one:
 *
 *  kv       LKP-tests' stats format, one "name: value" line a figure, names
 *           of [a-z0-9_.] (a program's parse output, which LKP prefixes
 *           with the program's name), a broken invariant as a .fail stat
 *  mmtests  one tab-separated row a run mean (function, design, config,
 *           run, cycles), what an mmtests extractor reads
 */
#ifndef PCB_OUTPUT_WRITE_KV_H
#define PCB_OUTPUT_WRITE_KV_H

#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

/* text as a stat name's part: lower case, a space a dot, anything else an underscore */
void pcb_kv_name(const char *text, char *buf, size_t len);
void pcb_kv_print(FILE *out, json_t *result);
void pcb_mmtests_print(FILE *out, json_t *result);

#endif
