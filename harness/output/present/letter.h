/* SPDX-License-Identifier: MIT */
/*
 * Text for a patch series' cover letter (72 columns, plain text) or a web
 * page (markdown), from result.json alone: the Test System block, the
 * method in three lines, the command that reproduces a result; and
 * report's whole letter. compare.c builds its own from the same parts.
 */
#ifndef PCB_OUTPUT_PRESENT_LETTER_H
#define PCB_OUTPUT_PRESENT_LETTER_H

#include <stdio.h>
#include <jansson.h>

/* a cover letter's line length */
#define PCB_LETTER_WIDTH 72

/*
 * text with every line longer than width broken at a space (or, with
 * none, at width); a broken line goes on indented two columns more
 */
void pcb_fold(FILE *out, const char *text, int width);

/* the machine as `pcpbench info` prints it, from a result's context, under title */
void pcb_letter_test_system(FILE *out, json_t *result, const char *title, int markdown);
/* timing mode, runs, what is subtracted */
void pcb_letter_method(FILE *out, json_t *result, int markdown);
/*
 * The command that made a result: context.command, whole, whatever its
 * length, else run of its scenario file, made in buf
 */
const char *pcb_letter_command(json_t *result, char *buf, size_t len);
/* a shell command broken at spaces with " \" continuations to fit width */
void pcb_letter_shell(FILE *out, const char *prefix, const char *cmd, int width);

/* report --format email|markdown */
int pcb_letter_report(FILE *out, json_t *result, int markdown, char *err, size_t errlen);

#endif
