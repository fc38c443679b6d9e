/* SPDX-License-Identifier: MIT */
/*
 * The program's name in its messages, and the usage error (exit.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "exit.h"

const char *const prog = "pcpbench";

void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(EXIT_USAGE);
}
