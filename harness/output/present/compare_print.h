/* SPDX-License-Identifier: MIT */
/* compare's object (compare.h) printed in each of compare's formats */
#ifndef PCB_OUTPUT_PRESENT_COMPARE_PRINT_H
#define PCB_OUTPUT_PRESENT_COMPARE_PRINT_H

#include <stdio.h>

#include <jansson.h>

/* format: a PCB_FORMAT_ of letter.h */
int pcb_compare_print(FILE *out, json_t *cmp, json_t **results, int format);

#endif
