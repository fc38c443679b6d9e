/* SPDX-License-Identifier: MIT */
/*
 * Where pcpbench's data is: the scenarios (scenarios/, the seeds' claims
 * scenarios/seeds.ini among them) and plot's gnuplot scripts (plots/).
 * The binary a build made, run from its build directory, reads its
 * checkout's. An installed one reads the data directory it was installed
 * with, datadir/pcpbench under the prefix it runs from (its directory
 * less bindir), so that a tree installed under a DESTDIR or moved whole
 * reads its own; a binary away from its bindir, the configured prefix's.
 * PCPBENCH_DATADIR, where it is set, names the data directory instead (a
 * copy of a checkout's scenarios/ and plots/, as the test guest's /pcb).
 * Never the current directory: a scenario named without a path is read
 * from the data directory alone.
 */
#ifndef PCB_DATADIR_H
#define PCB_DATADIR_H

#include <stddef.h>

/* DATA/rel into buf (DATA itself for rel ""): buf */
const char *pcb_data_path(const char *rel, char *buf, size_t len);

#endif
