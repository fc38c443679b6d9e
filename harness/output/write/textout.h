/* SPDX-License-Identifier: MIT */
/*
 * Text for a terminal: what a result's strings hold (a description given
 * on the command line, a hand-edited label) is printed with every control
 * character but the line break and the tab written as \xNN, C0, DEL and
 * C1 (U+0080-U+009F) alike, so that no result can move the cursor, clear
 * the screen or retitle the terminal of whoever reads its tables.
 */
#ifndef PCB_OUTPUT_WRITE_TEXTOUT_H
#define PCB_OUTPUT_WRITE_TEXTOUT_H

#include <stdio.h>

/* a stream writing to out through the escape; fclose() it (out stays open); NULL: use out */
FILE *pcb_text_stream(FILE *out);

/* the bytes at s a terminal acts on: 1 for C0 or DEL, 2 for C1 in UTF-8, else 0 */
static inline int pcb_control_bytes(const char *s)
{
	unsigned char b = (unsigned char)s[0], n = b == 0xc2 ? (unsigned char)s[1] : 0;

	if (b < 0x20 || b == 0x7f)
		return 1;
	return n >= 0x80 && n <= 0x9f ? 2 : 0;
}

#endif
