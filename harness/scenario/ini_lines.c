// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ini_lines.h"

/*
 * inih reads through a fixed line buffer: a longer line would be split and
 * its tail read as a line of its own (a comment's text as a setting). So
 * each line is handed over whole or not at all: comments become empty
 * lines, whatever their length; leading blanks go (inih would take an
 * indented line for a continuation of the previous value); an inline
 * comment is cut; and what is left must fit, else the line is refused with
 * its own number.
 */
char *pcb_ini_next_line(char *str, int num, struct pcb_ini_lines *in)
{
	const char *line = in->text, *nl, *end, *semi;
	size_t len;

	if (!*in->text || in->failed)
		return NULL;
	nl = strchr(line, '\n');
	in->text = nl ? nl + 1 : line + strlen(line);
	in->line++;
	end = nl ? nl : in->text;
	while (line < end && isspace((unsigned char)*line))
		line++;
	if (line < end && (*line == ';' || *line == '#'))
		end = line;
	for (semi = line; semi < end; semi++)
		if (*semi == ';' && semi > line && isspace((unsigned char)semi[-1])) {
			end = semi;
			break;
		}
	len = (size_t)(end - line);
	if (len + 2 > (size_t)num) {
		snprintf(in->err, in->errlen, "%s:%d: a line of %zu characters (at most %d, "
			 "comments aside)", in->file, in->line, len, num - 2);
		in->failed = 1;
		return NULL;
	}
	memcpy(str, line, len);
	str[len] = '\n';
	str[len + 1] = 0;
	return str;
}
