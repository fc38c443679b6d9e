/* SPDX-License-Identifier: MIT */
/*
 * The registry of kernel models: one line a model. A model is a folder
 * under kernels/ that defines its struct pcb_model (harness/model.h).
 */
#include <string.h>

#include "../model.h"

extern const struct pcb_model memcg_model, pcp_model;

const struct pcb_model *const pcb_models[] = {
	&memcg_model,
	&pcp_model,
	NULL,
};

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
