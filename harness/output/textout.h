/* SPDX-License-Identifier: MIT */
/*
 * Text for a terminal: what a result's strings hold (a description given
 * on the command line, a hand-edited label) is printed with every control
 * character but the line break and the tab written as \xNN, C0, DEL and
 * C1 (U+0080-U+009F) alike, so that no result can move the cursor, clear
 * the screen or retitle the terminal of whoever reads its tables.
 */
#ifndef PCB_OUTPUT_TEXTOUT_H
#define PCB_OUTPUT_TEXTOUT_H

#include <stdio.h>

/* a stream writing to out through the escape; fclose() it (out stays open); NULL: use out */
FILE *pcb_text_stream(FILE *out);
/* the escape over s[0..n) onto out; *lead: a C2 byte the last call ended with */
void pcb_text_escape(FILE *out, const char *s, size_t n, int *lead);

#endif
