/* SPDX-License-Identifier: MIT */
/*
 * The models the harness runs, NULL-terminated (pcb/registry.h): one
 * struct pcb_model each, <name>_model, listed in meson.build's pcb_models
 * and passed here as PCB_MODELS (the generated models.h).
 */
#include "pcb/registry.h"
#include "models.h"

#define PCB_MODEL(m) extern const struct pcb_model m##_model;
PCB_MODELS
#undef PCB_MODEL

const struct pcb_model *const pcb_models[] = {
#define PCB_MODEL(m) &m##_model,
	PCB_MODELS
#undef PCB_MODEL
	NULL,
};
