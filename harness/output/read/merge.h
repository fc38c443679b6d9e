/* SPDX-License-Identifier: MIT */
/*
 * Results of one scenario, each of its own designs (the instrumented
 * backend's: a booted kernel each), merged into one for the tables, the
 * seeds' claims and the like (merge.c).
 */
#ifndef PCB_OUTPUT_READ_MERGE_H
#define PCB_OUTPUT_READ_MERGE_H

#include <stddef.h>

#include <jansson.h>

/*
 * from's designs and their rows appended to into's, where both are of one
 * scenario and its settings (run.designs aside) and no design is in both;
 * into keeps its context and baseline, and a note says where each design
 * came from (from_name, its kernel). 0, or -1 with err, into unchanged.
 */
int pcb_result_merge(json_t *into, json_t *from, const char *from_name, char *err,
		     size_t errlen);

#endif
