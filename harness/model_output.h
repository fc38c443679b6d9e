/* SPDX-License-Identifier: MIT */
/*
 * The model interface's output half (pcb/model_output.h in harness/seam/),
 * under the name output/ and cli/ include it by.
 */
#ifndef PCB_MODEL_OUTPUT_H
#define PCB_MODEL_OUTPUT_H

#include "pcb/model_output.h"

#endif
