/* SPDX-License-Identifier: MIT */
/*
 * Results of one scenario merged into one: each of its own designs, as
 * the instrumented backend's are (a booted kernel has one design, and the
 * seed's table wants two kernels side by side). The rows of each kind are
 * appended to the first result's, which keeps its context and baseline;
 * where each merged design came from is a note.
 */
#include <stdio.h>
#include <string.h>

#include "../../schema/schema.h"
#include "merge.h"
#include "query.h"

/* the top-level arrays of rows a result holds, each a design's rows */
static const char *const row_arrays[] = {
	"designs", "functions", "counters", "counters_per_call", "drains", "contention",
	"interruptions",
};

/* the first key whose value differs between two settings objects, NULL if none */
static const char *setting_differs(json_t *a, json_t *b)
{
	const char *key;
	json_t *v;

	json_object_foreach(a, key, v)
		if (!json_equal(v, json_object_get(b, key)))
			return key;
	json_object_foreach(b, key, v)
		if (!json_object_get(a, key))
			return key;
	return NULL;
}

/* "design X of kernel V (release R, build id B)" or the machine's kernel, into buf */
static void whence(json_t *result, const char *name, char *buf, size_t len)
{
	json_t *ctx = rj_top_context(result), *ib;

	if (rj_ctx_has_instrumented(ctx)) {
		ib = rj_ctx_instrumented(ctx);
		snprintf(buf, len, "%s: the booted kernel %s (%s, build id %s, booted on %s)", name,
			 rj_ibe_variant(ib), rj_ibe_has_release(ib) ? rj_ibe_release(ib) : "?",
			 rj_ibe_has_build_id(ib) ? rj_ibe_build_id(ib) : "?",
			 rj_ibe_has_booted(ib) ? rj_ibe_booted(ib) : "?");
	} else {
		snprintf(buf, len, "%s: kernel %s, backend %s", name, rj_ctx_kernel(ctx),
			 rj_ctx_has_backend(ctx) ? rj_ctx_backend(ctx) : "userspace");
	}
}

/*
 * the first of what makes two results' figures of different things: the
 * machine, and of the instrumented backend's kernels the release, the
 * instrument and how each was booted; NULL where none differs
 */
static const char *context_differs(json_t *a, json_t *b)
{
	static const char *const machine[] = { "cpu_model", "cpus", "numa_nodes" };
	static const char *const kernel[] = { "release", "instrument", "emulated", "booted" };
	json_t *ia = json_object_get(a, "instrumented"), *ib = json_object_get(b, "instrumented");

	for (size_t i = 0; i < sizeof(machine) / sizeof(machine[0]); i++)
		if (!json_equal(json_object_get(a, machine[i]), json_object_get(b, machine[i])))
			return machine[i];
	if (!ia != !ib)
		return "backend";
	for (size_t i = 0; ia && i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (!json_equal(json_object_get(ia, kernel[i]), json_object_get(ib, kernel[i])))
			return kernel[i];
	return NULL;
}

int pcb_result_merge(json_t *into, json_t *from, const char *from_name, char *err,
		     size_t errlen)
{
	json_t *sa = rj_top_scenario(into), *sb = rj_top_scenario(from), *dj, *notes;
	const char *key;
	char where[1024], note[1400];
	size_t i;

	if (strcmp(rj_sc_name(sa), rj_sc_name(sb))) {
		snprintf(err, errlen, "%s is a result of %s, not %s: the results of one scenario "
			 "merge", from_name, rj_sc_name(sb), rj_sc_name(sa));
		return -1;
	}
	key = setting_differs(rj_sc_settings(sa), rj_sc_settings(sb));
	if (key && strcmp(key, "run.designs")) {
		snprintf(err, errlen, "%s ran %s otherwise: results of the same settings merge",
			 from_name, key);
		return -1;
	}
	key = context_differs(rj_top_context(into), rj_top_context(from));
	if (key) {
		snprintf(err, errlen, "%s was taken with another %s: results of one machine, "
			 "instrument and way of booting merge", from_name, key);
		return -1;
	}
	json_array_foreach(rj_top_designs(from), i, dj)
		if (pcb_design_row(into, rj_design_design(dj))) {
			snprintf(err, errlen, "%s has design %s too: results of different designs "
				 "merge (each of its own kernel, as the instrumented backend's are)",
				 from_name, rj_design_design(dj));
			return -1;
		}
	for (size_t a = 0; a < sizeof(row_arrays) / sizeof(row_arrays[0]); a++) {
		json_t *to = json_object_get(into, row_arrays[a]);
		json_t *rows = json_object_get(from, row_arrays[a]);

		if (!json_is_array(rows) || !json_array_size(rows))
			continue;
		if (!json_is_array(to)) {
			to = json_array();
			json_object_set_new(into, row_arrays[a], to);
		}
		json_array_extend(to, rows);
	}
	notes = json_object_get(into, "notes");
	if (!json_is_array(notes)) {
		notes = json_array();
		json_object_set_new(into, "notes", notes);
	}
	if (json_is_array(json_object_get(from, "notes")))
		json_array_extend(notes, json_object_get(from, "notes"));
	json_array_foreach(rj_top_designs(from), i, dj) {
		whence(from, rj_design_design(dj), where, sizeof(where));
		snprintf(note, sizeof(note), "merged from %s: %s", from_name, where);
		json_array_append_new(notes, json_string(note));
	}
	return 0;
}
