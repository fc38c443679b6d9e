/* SPDX-License-Identifier: MIT */
/*
 * The command line: one file a command (cmd_*.c), their usage texts
 * (usage.c) and what they share.
 */
#ifndef PCB_CLI_H
#define PCB_CLI_H

#include <stdio.h>

#include "../machine/topo.h"

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2
/* ms of TSC calibration against CLOCK_MONOTONIC_RAW before a run */
#define CALIBRATE_MS 200

extern const char *const prog;
extern const char run_usage[], report_usage[], info_usage[], list_usage[], cpus_usage[],
	compare_usage[], reproduce_usage[], check_usage[];
/* the usages that name what the models declare */
void main_help(FILE *out);
void plot_help(FILE *out);
void calibrate_help(FILE *out);

void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* whether argv asks for help (-h, --help before any "--") */
int asks_help(int argc, char **argv);
/* prints usage and returns 1 when argv asks for help */
int wants_help(int argc, char **argv, const char *usage);
void load_topology(struct pcb_topo *topo, const char *spec);

int cmd_run(int argc, char **argv, const char *topo_spec, const char *command);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_reproduce(int argc, char **argv, const char *topo_spec, const char *command);
int cmd_info(int argc, char **argv, const char *topo_spec);
int cmd_list(int argc, char **argv);
int cmd_calibrate(int argc, char **argv, const char *topo_spec);
int cmd_cpus(int argc, char **argv, const char *topo_spec);
int cmd_check(int argc, char **argv, const char *topo_spec);

#endif
