/* SPDX-License-Identifier: MIT */
/*
 * What the design template gives a model: the names of a variant's
 * functions, and the variant a configuration runs, both from the model's
 * variants.def.
 *
 * variants.def declares a model's build variants once, one axis a line,
 * the first axis major:
 *
 *	PCB_AXIS(MEMCG_STOCK_SLOTS, s, 1, 7)
 *	PCB_AXIS(PCB_IRQ_MODEL, i, 0, 1, 2)
 *
 * an axis being the macro a build sets, the letter that names it in a
 * variant's name (s7_i1) and the values it is built with. Meson builds
 * every design once per combination (template/meson.build); variant[] of
 * the design's registry entry holds them in that order, and the model's
 * variant_index() finds one with pcb_variant_index(), from the
 * configuration's values and, where a value defaults to the design's
 * kernel, the design's info.
 */
#ifndef PCB_TEMPLATE_H
#define PCB_TEMPLATE_H

#define PCB_CAT_(a, b) a##b
#define PCB_CAT(a, b) PCB_CAT_(a, b)
#define PCB_STR_(a) #a
#define PCB_STR(a) PCB_STR_(a)

/* in a design's build: its function `name` in this variant (memcg_local_lock_run_s1_i0) */
#define FN(name) PCB_CAT(PCB_CAT(PCB_CAT(PCB_MODEL, _), PCB_DESIGN), \
			 PCB_CAT(_##name##_, PCB_VARIANT_TAG))

/* one axis of variants.def */
struct pcb_axis {
	const char *macro;		/* what the build sets: MEMCG_STOCK_SLOTS */
	int nr;				/* values built */
	const long *value;
};

/* variants.def as an array: static const struct pcb_axis axes[] = { #include it } */
#define PCB_AXIS_ENTRY(macro, tag, ...)						\
	{ #macro, (int)(sizeof((const long[]){ __VA_ARGS__ }) / sizeof(long)),	\
	  (const long[]){ __VA_ARGS__ } },

#define PCB_NR_AXES(axes) ((int)(sizeof(axes) / sizeof((axes)[0])))

/*
 * The variant a configuration runs: the index into a design's variant[]
 * of the build whose axes have value[] (one value an axis, in variants.def's
 * order), or -1 where no build has them.
 */
static inline int pcb_variant_index(const struct pcb_axis *axes, int nr_axes, const long *value)
{
	int index = 0;

	for (int a = 0; a < nr_axes; a++) {
		int k = 0;

		while (k < axes[a].nr && axes[a].value[k] != value[a])
			k++;
		if (k == axes[a].nr)
			return -1;
		index = index * axes[a].nr + k;
	}
	return index;
}

#endif
