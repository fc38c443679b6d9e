/* SPDX-License-Identifier: MIT */
/*
 * Finding a model, a design and a function row by name (pcb/registry.h).
 * The models themselves are listed by their own build, each folder's
 * struct pcb_model in pcb_models[] (kernels/models.c).
 */
#include <string.h>

#include "pcb/registry.h"

const struct pcb_model *pcb_model_find(const char *name)
{
	for (int i = 0; pcb_models[i]; i++)
		if (!strcmp(pcb_models[i]->name, name))
			return pcb_models[i];
	return NULL;
}

const struct pcb_design *pcb_design_find(const struct pcb_model *m, const char *name)
{
	for (int i = 0; m->designs[i]; i++)
		if (!strcmp(m->designs[i]->name, name))
			return m->designs[i];
	return NULL;
}

int pcb_fn_find(const struct pcb_model *m, const char *name)
{
	for (int i = 0; i < m->nr_fn; i++)
		if (!strcmp(m->fn_name[i], name))
			return i;
	return -1;
}
