// SPDX-License-Identifier: MIT
/*
 * The models and designs this module was built with: Kbuild passes
 * PCB_KMOD_MODELS, PCB_KMOD_MODEL(m) a model, and PCB_KMOD_DESIGNS,
 * PCB_KMOD_DESIGN(m, d) each design Kbuild built (BUILD/kmod.mk: those with a
 * kernel meaning).
 */
#include <linux/string.h>

#include "kmod.h"

#define PCB_KMOD_MODEL(m) extern const struct pcb_model_run m##_model_run;
PCB_KMOD_MODELS
#undef PCB_KMOD_MODEL
#define PCB_KMOD_DESIGN(m, d) extern const struct pcb_design m##_design_##d;
PCB_KMOD_DESIGNS
#undef PCB_KMOD_DESIGN

static const struct pcb_model_run *const models[] = {
#define PCB_KMOD_MODEL(m) &m##_model_run,
	PCB_KMOD_MODELS
#undef PCB_KMOD_MODEL
};

static const struct {
	const char *model;
	const struct pcb_design *d;
} designs[] = {
#define PCB_KMOD_DESIGN(m, d) { #m, &m##_design_##d },
	PCB_KMOD_DESIGNS
#undef PCB_KMOD_DESIGN
};

const struct pcb_model_run *pcb_kmod_model(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		if (!strcmp(models[i]->name, name))
			return models[i];
	return NULL;
}

const struct pcb_design *pcb_kmod_design(const char *model, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(designs); i++)
		if (!strcmp(designs[i].model, model) && !strcmp(designs[i].d->name, name))
			return designs[i].d;
	return NULL;
}
