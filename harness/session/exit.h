/* SPDX-License-Identifier: MIT */
/*
 * The program's exit statuses, its name in messages and its usage error,
 * which the session (session*.c, groups.c, nodes.c) and the commands
 * (cli/) share (exit.c).
 */
#ifndef PCB_SESSION_EXIT_H
#define PCB_SESSION_EXIT_H

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
/* SIGINT or SIGTERM ended plot: the temporary directories removed, a shell's status */
#define EXIT_INTERRUPTED 130

extern const char *const prog;

/* "pcpbench: " and the message on stderr, then exit(EXIT_USAGE) */
void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
