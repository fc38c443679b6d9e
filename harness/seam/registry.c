/* SPDX-License-Identifier: MIT */
/*
 * Finding a model, a design and a function row by name, and a model's
 * concerns with their defaults (pcb/registry.h). The models themselves are
 * listed by their own build, each folder's struct pcb_model in
 * pcb_models[] (kernels/models.c).
 */
#include <stdlib.h>
#include <string.h>

#include "pcb/registry.h"
#include "pcb/worker.h"

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

struct pcb_model_ops pcb_model_ops(const struct pcb_model *m)
{
	return pcb_model_ops_defaults(&m->ops);
}

/* a design's "events": each of the model's counters, by its name */
static void events_json(json_t *design, const struct pcb_model_figures *f)
{
	json_t *ev = json_object();

	for (int e = 0; e < f->model->nr_ev; e++)
		json_object_set_new(ev, f->model->ev_name[e], json_integer((json_int_t)f->ev[e]));
	json_object_set_new(design, "events", ev);
}

struct pcb_model_output pcb_model_output(const struct pcb_model *m)
{
	struct pcb_model_output out = m && m->output ? *m->output : (struct pcb_model_output){ 0 };

	if (!out.result_json)
		out.result_json = events_json;
	if (!out.caches_name)
		out.caches_name = "caches";
	return out;
}

void pcb_model_describe(const struct pcb_model *m, const void *config, char *buf, size_t len)
{
	if (len)
		buf[0] = 0;
	if (m->config.describe)
		m->config.describe(config, buf, len);
}
