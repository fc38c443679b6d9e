/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include "textout.h"

struct text_cookie {
	FILE *out;
	int lead;
};

/* the escape over s[0..n) onto out; *lead: a C2 byte the last write ended with */
static void text_escape(FILE *out, const char *s, size_t n, int *lead)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (*lead) {
			*lead = 0;
			/* U+0080-U+009F: a C1 control, CSI among them */
			if (c >= 0x80 && c <= 0x9f) {
				fprintf(out, "\\xc2\\x%02x", c);
				continue;
			}
			fputc(0xc2, out);
		}
		if (c == 0xc2)
			*lead = 1;
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static ssize_t text_write(void *cookie, const char *buf, size_t n)
{
	struct text_cookie *t = cookie;

	text_escape(t->out, buf, n, &t->lead);
	return ferror(t->out) ? -1 : (ssize_t)n;
}

static int text_close(void *cookie)
{
	struct text_cookie *t = cookie;
	int rc;

	if (t->lead)
		fputc(0xc2, t->out);
	rc = fflush(t->out);
	free(t);
	return rc;
}

FILE *pcb_text_stream(FILE *out)
{
	struct text_cookie *t = malloc(sizeof(*t));
	cookie_io_functions_t io = { .write = text_write, .close = text_close };
	FILE *f;

	if (!t)
		return out;
	*t = (struct text_cookie){ out, 0 };
	f = fopencookie(t, "w", io);
	if (!f) {
		free(t);
		return out;
	}
	return f;
}
