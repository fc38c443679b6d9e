/* SPDX-License-Identifier: MIT */
/*
 * The design template: one build variant of one design of one model.
 * template/meson.build compiles this file once per design of a model's
 * designs.def and per variant of its variants.def, with
 *
 *   PCB_MODEL		the model, the prefix of its symbols (memcg)
 *   PCB_DESIGN		the design (local_lock)
 *   PCB_DESIGN_HEADER	its header ("kernels/memcg/designs/local_lock.h")
 *   PCB_MODEL_VARIANT	the model's part of the template ("kernels/memcg/variant.h")
 *   PCB_VARIANTS_DEF	the model's variants.def
 *   PCB_VARIANT		this variant's index into the design's variant[]
 *   PCB_NR_VARIANTS	how many the model has
 *   PCB_VARIANT_TAG	this variant's name (s7_i1)
 *
 * and each axis's macro set to this variant's value (-DMEMCG_STOCK_SLOTS=7).
 *
 * The model's part includes PCB_DESIGN_HEADER where its own template
 * needs the design, and defines, under FN() names, the variant's run,
 * release, stock_init, work_data, drain_local, drain_all and prefill
 * functions and its ops; MODEL_CPU and MODEL_STOCK, its per-CPU struct
 * and its per-CPU cache, MODEL_STOCK_HOT_BYTES, and where it has them
 * MODEL_SKIPS_ISOLATED and MODEL_NOCACHE, and MODEL_DRAIN_DEAD where a
 * CPU leaving the run is emptied otherwise than by its drain work (its
 * FN(drain_dead)). The design's drain flavour
 * (kernels/drain/) gives PCB_DRAIN_FLAVOUR and the thread hooks; the design
 * header DESIGN_SUMMARY, DESIGN_FOLLOWS, DESIGN_PROMISE and, where a
 * machine may lack what it needs, DESIGN_UNAVAILABLE; where it has no
 * kernel meaning, DESIGN_KERNEL_REFUSED (kmod/ does not build it). A model whose
 * variant choice depends on the design defines MODEL_DESIGN_INFO_TYPE and
 * MODEL_DESIGN_INFO, the initializer of what it knows of the design, which
 * the registry entry points to (pcb_design.info).
 *
 * This file defines the variant and, in variant 0, the design's registry
 * entry, PCB_MODEL_design_PCB_DESIGN, which the model's designs[] lists.
 */
#include "pcb/model.h"
#include "template.h"

#include PCB_MODEL_VARIANT

#ifndef DESIGN_UNAVAILABLE
#define DESIGN_UNAVAILABLE NULL		/* runs wherever pcpbench does */
#endif
#ifndef DESIGN_KERNEL_REFUSED
#define DESIGN_KERNEL_REFUSED NULL	/* the kernel backend runs it (kmod/) */
#endif
#ifndef MODEL_SKIPS_ISOLATED
#define MODEL_SKIPS_ISOLATED 0
#endif
#ifndef MODEL_NOCACHE
#define MODEL_NOCACHE 0
#endif

/* the build meson made is the one variants.def declares */
#define PCB_AXIS(macro, tag, ...) * (int)(sizeof((const long[]){ __VA_ARGS__ }) / sizeof(long))
_Static_assert(PCB_NR_VARIANTS == 1
#include PCB_VARIANTS_DEF
	       , "the variants meson builds are variants.def's");
#undef PCB_AXIS
_Static_assert(PCB_NR_VARIANTS <= PCB_MAX_VARIANTS, "struct pcb_design holds every variant");

/* variant i of this design: memcg_local_lock_variant_3 */
#define VARIANT(i) PCB_CAT(PCB_CAT(PCB_CAT(PCB_MODEL, _), PCB_DESIGN), PCB_CAT(_variant_, i))

const struct pcb_variant VARIANT(PCB_VARIANT) = {
	.name = PCB_STR(PCB_VARIANT_TAG),
	.cpu_size = sizeof(MODEL_CPU),
	.stock_size = sizeof(MODEL_STOCK),
	.stock_hot_bytes = MODEL_STOCK_HOT_BYTES,
	.stock_init = FN(stock_init),
	.thread_start = PCB_DRAIN_THREAD_START,
	.thread_stop = PCB_DRAIN_THREAD_STOP,
	.run = FN(run),
	.release = FN(release),
	.work_data = FN(work_data),
	.drain_local = FN(drain_local),
#ifdef MODEL_DRAIN_DEAD
	.drain_dead = FN(drain_dead),
#else
	.drain_dead = FN(drain_local),
#endif
	.drain_all = FN(drain_all),
	.prefill = FN(prefill),
	.ops = &FN(ops),
};

#if PCB_VARIANT == 0
/* variants 0 .. n-1, in variants.def's order */
#define PCB_VARIANTS_1 &VARIANT(0)
#define PCB_VARIANTS_2 PCB_VARIANTS_1, &VARIANT(1)
#define PCB_VARIANTS_3 PCB_VARIANTS_2, &VARIANT(2)
#define PCB_VARIANTS_4 PCB_VARIANTS_3, &VARIANT(3)
#define PCB_VARIANTS_5 PCB_VARIANTS_4, &VARIANT(4)
#define PCB_VARIANTS_6 PCB_VARIANTS_5, &VARIANT(5)
#define PCB_VARIANTS_OF(n) PCB_VARIANTS_##n
#define PCB_VARIANTS(n) PCB_VARIANTS_OF(n)

extern const struct pcb_variant VARIANT(1), VARIANT(2), VARIANT(3), VARIANT(4), VARIANT(5);

#ifdef MODEL_DESIGN_INFO
static const MODEL_DESIGN_INFO_TYPE design_info = MODEL_DESIGN_INFO;
#define PCB_DESIGN_INFO (&design_info)
#else
#define PCB_DESIGN_INFO NULL
#endif

const struct pcb_design PCB_CAT(PCB_CAT(PCB_MODEL, _design_), PCB_DESIGN) = {
	.name = PCB_STR(PCB_DESIGN),
	.summary = DESIGN_SUMMARY,
	.follows = DESIGN_FOLLOWS,
	.promise = DESIGN_PROMISE,
	.drain = PCB_DRAIN_FLAVOUR,
	.skips_isolated = MODEL_SKIPS_ISOLATED,
	.nocache = MODEL_NOCACHE,
	.unavailable = DESIGN_UNAVAILABLE,
	.kernel_refused = DESIGN_KERNEL_REFUSED,
	.info = PCB_DESIGN_INFO,
	.variant = { PCB_VARIANTS(PCB_NR_VARIANTS) },
};
#endif
