/* SPDX-License-Identifier: MIT */
/*
 * The registry (the model interface, model.h): every model, listed by the
 * models' own build (kernels/models.c, from kernels/meson.build), and the
 * look-ups by name the harness makes, defined beside it (seam/registry.c).
 */
#ifndef PCB_SEAM_REGISTRY_H
#define PCB_SEAM_REGISTRY_H

#include "model.h"

/* every model, NULL-terminated */
extern const struct pcb_model *const pcb_models[];

const struct pcb_model *pcb_model_find(const char *name);
const struct pcb_design *pcb_design_find(const struct pcb_model *m, const char *name);
int pcb_fn_find(const struct pcb_model *m, const char *name);

#endif
