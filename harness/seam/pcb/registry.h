/* SPDX-License-Identifier: MIT */
/*
 * The registry (the model interface, model.h): every model, listed by the
 * models' own build (kernels/models.c, from kernels/meson.build), the
 * look-ups by name the harness makes, and each concern of a model with
 * its defaults filled in; defined beside it (seam/registry.c).
 */
#ifndef PCB_SEAM_REGISTRY_H
#define PCB_SEAM_REGISTRY_H

#include "pcb/model.h"
#include "pcb/model_output.h"

/* every model, NULL-terminated */
extern const struct pcb_model *const pcb_models[];

const struct pcb_model *pcb_model_find(const char *name);
const struct pcb_design *pcb_design_find(const struct pcb_model *m, const char *name);
int pcb_fn_find(const struct pcb_model *m, const char *name);

/* m's run-time operations, each NULL one its default (model.h says which) */
struct pcb_model_ops pcb_model_ops(const struct pcb_model *m);
/* m's output, or where it has none (or m is NULL) the default: its events as counted */
struct pcb_model_output pcb_model_output(const struct pcb_model *m);
/* m's describe() of a configuration, or nothing */
void pcb_model_describe(const struct pcb_model *m, const void *config, char *buf, size_t len);

#endif
