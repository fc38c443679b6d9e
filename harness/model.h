/* SPDX-License-Identifier: MIT */
/*
 * The model interface's registration and registry (pcb/model.h,
 * pcb/registry.h in harness/seam/), under the name output/ and cli/
 * include them by.
 */
#ifndef PCB_MODEL_H
#define PCB_MODEL_H

#include "pcb/model.h"
#include "pcb/registry.h"

#endif
