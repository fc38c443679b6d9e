/* SPDX-License-Identifier: MIT */
/* compare's object (compare.h) printed as text or as a cover letter */
#ifndef PCB_OUTPUT_PRESENT_COMPARE_PRINT_H
#define PCB_OUTPUT_PRESENT_COMPARE_PRINT_H

#include <stdio.h>

#include <jansson.h>

/*
 * compare's text: what differs in the results' context, the key to the
 * results, then the blocks of means and the Diff blocks
 */
void pcb_compare_print_text(FILE *out, json_t *cmp, json_t **results);
/* the cover letter: Test System, method, tables, the commands; markdown or 72 columns unfolded */
void pcb_compare_print_letter(FILE *out, json_t *cmp, json_t **results, int markdown);

#endif
