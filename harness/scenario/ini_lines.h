/* SPDX-License-Identifier: MIT */
/*
 * The lines inih reads of a scenario or claims file (libinih's
 * ini_parse_stream() reader), shared by scenario.c and claims.c.
 */
#ifndef PCB_INI_LINES_H
#define PCB_INI_LINES_H

#include <stddef.h>

struct pcb_ini_lines {
	const char *file;	/* named in errors */
	const char *text;	/* what remains to read */
	int line;		/* the line handed to inih last */
	int failed;
	char *err;
	size_t errlen;
};

/* the next line into str (num bytes), or NULL at the end or on a failure */
char *pcb_ini_next_line(char *str, int num, struct pcb_ini_lines *in);

#endif
