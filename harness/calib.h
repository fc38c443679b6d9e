/* SPDX-License-Identifier: MIT */
/*
 * The calibration benchmark: consume_stock()'s work under local_lock as a
 * bare loop, with no harness, design table or statistics around it, to set
 * beside the harness's batch figure for the same call.
 */
#ifndef PCB_CALIB_H
#define PCB_CALIB_H

#include <stdint.h>

/* cycles per consume in rounds of MEMCG_CHARGE_BATCH hits, one timed region */
double pcb_bare_consume_loop(uint64_t rounds, double overhead);

#endif
