/* SPDX-License-Identifier: MIT */
/*
 * compare: two or more saved results side by side, each against the
 * first. Every input is read and checked before a line is printed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../output/format/format.h"
#include "../output/present/compare.h"
#include "../output/read/load.h"
#include "cli.h"

/* the length of the valid UTF-8 character at s, 0 where none starts there */
static size_t utf8_char(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* a byte that is not part of a valid UTF-8 character becomes '?' (JSON holds UTF-8 only) */
static void utf8_or_mark(char *s)
{
	while (*s) {
		size_t n = utf8_char((const unsigned char *)s);

		if (!n) {
			*s = '?';
			n = 1;
		}
		s += n;
	}
}

/* a directory goes by its name, a file by its path; in UTF-8 */
static void label_of(char *buf, size_t len, const char *arg)
{
	struct stat st;
	size_t n;
	char *slash;

	snprintf(buf, len, "%s", arg);
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		n = strlen(buf);
		while (n > 1 && buf[n - 1] == '/')
			buf[--n] = 0;
		slash = strrchr(buf, '/');
		if (slash && slash[1])
			memmove(buf, slash + 1, strlen(slash + 1) + 1);
	}
	utf8_or_mark(buf);
}

/* the results compared, loaded, each with its path and label */
struct compare_inputs {
	json_t *results[PCB_COMPARE_MAX];
	char paths[PCB_COMPARE_MAX][PATH_MAX], labels[PCB_COMPARE_MAX][PATH_MAX];
	const char *lp[PCB_COMPARE_MAX], *pp[PCB_COMPARE_MAX];
	int n;
};

static void drop_results(struct compare_inputs *in)
{
	for (int i = 0; i < in->n; i++)
		json_decref(in->results[i]);
	free(in);
}

/* every file loaded and checked as report checks it, or exit 2 naming it; NULL out of memory */
static struct compare_inputs *load_results(const char *const *files, int n)
{
	struct compare_inputs *in = calloc(1, sizeof(*in));
	char err[PATH_MAX + 512];

	if (!in)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (pcb_result_load(files[i], &in->results[i], in->paths[i], sizeof(in->paths[i]),
				    err, sizeof(err)) < 0) {
			drop_results(in);
			die_usage("compare: %s", err);
		}
		in->n = i + 1;
		label_of(in->labels[i], sizeof(in->labels[i]), files[i]);
		utf8_or_mark(in->paths[i]);
		in->lp[i] = in->labels[i];
		in->pp[i] = in->paths[i];
	}
	return in;
}

int cmd_compare(int argc, char **argv, const struct cli_ctx *ctx)
{
	const char *files[PCB_COMPARE_MAX];
	struct compare_inputs *in;
	char err[PATH_MAX + 512];
	const struct pcb_format *format = &pcb_format_text;
	char names[256];
	int n = 0;
	json_t *cmp;

	if (wants_help(argc, argv, compare_usage)) {
		pcb_format_help(stdout, PCB_FORMAT_COMPARE);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		const char *f = NULL;

		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			f = argv[++i];
		else if (!strncmp(argv[i], "--format=", 9))
			f = argv[i] + 9;
		else if (argv[i][0] == '-' && argv[i][1])
			die_usage("compare: unknown argument '%s' (see pcpbench compare --help)",
				  argv[i]);
		else if (n == PCB_COMPARE_MAX)
			die_usage("compare: at most %d results", PCB_COMPARE_MAX);
		else
			files[n++] = argv[i];
		if (f && !(format = pcb_format_find(f, PCB_FORMAT_COMPARE)))
			die_usage("compare: --format %s: %s", f,
				  pcb_format_names(PCB_FORMAT_COMPARE, names, sizeof(names)));
	}
	if (n < 2)
		die_usage("compare: give two or more results, directories or result.json files "
			  "(see pcpbench compare --help)");
	in = load_results(files, n);
	if (!in) {
		fprintf(stderr, "%s: compare: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	cmp = pcb_compare_build(in->results, in->lp, in->pp, n, err, sizeof(err));
	if (!cmp) {
		drop_results(in);
		die_usage("compare: %s", err);
	}
	if (pcb_format_compare(format, stdout, cmp, in->results) < 0) {
		json_decref(cmp);
		drop_results(in);
		fprintf(stderr, "%s: compare: out of memory\n", prog);
		return EXIT_RUNTIME;
	}
	json_decref(cmp);
	drop_results(in);
	return 0;
}
