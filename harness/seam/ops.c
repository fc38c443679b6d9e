/* SPDX-License-Identifier: MIT */
/*
 * A model's run-time operations with their defaults (pcb/model.h): built
 * into the program (registry.c's pcb_model_ops()) and into the kernel
 * backend's module, which runs the same operations.
 */
#include <stdlib.h>

#include "pcb/model.h"
#include "pcb/worker.h"

static void free_shared(void *shared)
{
	free(shared);
}

static struct pcb_stock_place stock_aligned(const void *shared, const struct pcb_design *d)
{
	return (struct pcb_stock_place){ .packed = false };
}

static void no_cpu_setup(void *shared, const struct pcb_design *d, struct pcb_cpu *cpu)
{
}

static void no_worker_setup(void *shared, struct pcb_worker *w)
{
}

static void *shared_is_target(void *shared)
{
	return shared;
}

static unsigned long nothing_stranded(void *shared, const struct pcb_variant *v, void *target,
				   struct pcb_cpu *cpu)
{
	return 0;
}

static int first_variant(const void *config, const struct pcb_design *d)
{
	return 0;
}

struct pcb_model_ops pcb_model_ops_defaults(const struct pcb_model_ops *given)
{
	struct pcb_model_ops ops = *given;

	if (!ops.variant_index)
		ops.variant_index = first_variant;
	if (!ops.teardown)
		ops.teardown = free_shared;
	if (!ops.stock_place)
		ops.stock_place = stock_aligned;
	if (!ops.cpu_setup)
		ops.cpu_setup = no_cpu_setup;
	if (!ops.worker_size)
		ops.worker_size = sizeof(struct pcb_worker);
	if (!ops.worker_setup)
		ops.worker_setup = no_worker_setup;
	if (!ops.drain_target)
		ops.drain_target = shared_is_target;
	if (!ops.stranded)
		ops.stranded = nothing_stranded;
	return ops;
}
