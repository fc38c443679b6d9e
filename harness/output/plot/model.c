/* SPDX-License-Identifier: MIT */
/*
 * The figures a result's model declares (model_output.h): its figures
 * against a key it sweeps, each series a field of the design entries, and
 * each function's Diff % against the sweep's baseline configuration.
 */
#include <math.h>
#include <string.h>

#include "../../model_output.h"
#include "../../schema/schema.h"
#include "../read/diffs.h"
#include "../read/query.h"
#include "../read/rows.h"
#include "lines.h"
#include "model.h"
#include "plot.h"

/* a swept figure's lines: the Diff % lines, then each series' */
struct sweep_lines {
	struct pcb_lines gain, series[PCB_MODEL_PLOT_SERIES];
	int nseries;
};

/* each function of dj against the same function of base, Diff %, a line a function */
static int gain_points(json_t *result, json_t *dj, json_t *base, const char *line, double v,
		       struct pcb_lines *gain)
{
	json_t *functions = rj_top_functions(result);
	int raw = pcb_result_raw(result);
	char name[400];
	json_t *x, *y;
	size_t j, k;
	int rc = 0;

	json_array_foreach(pcb_rows_where(functions, RJ_F_fn_design, rj_design_design(dj)), j, x) {
		json_array_foreach(pcb_rows_where2(functions, RJ_F_fn_design, rj_design_design(base),
						   RJ_F_fn_function, rj_fn_function(x)), k, y) {
			double b = pcb_fn_mean(y, raw);

			if (b == 0)
				continue;
			snprintf(name, sizeof(name), "%s %s", line, rj_fn_function(x));
			rc |= pcb_lines_add(gain, name, v, 100 * (pcb_fn_mean(x, raw) - b) / fabs(b),
					    0);
		}
	}
	return rc;
}

/* every design row's points against the swept key of p */
static int sweep_points(json_t *result, const struct pcb_model_plot *p, struct sweep_lines *sl)
{
	json_t *designs = rj_top_designs(result), *dj;
	const char *key = strrchr(p->sweep, '.') ? strrchr(p->sweep, '.') + 1 : p->sweep;
	size_t i;
	int rc = 0;

	json_array_foreach(designs, i, dj) {
		json_t *base = pcb_config_baseline(designs, dj);
		char line[256];
		double v;

		if (!pcb_sweep_value(dj, key, &v, line, sizeof(line)))
			continue;
		for (int k = 0; k < sl->nseries; k++) {
			const struct pcb_model_field *f = &p->series[k].field;
			json_t *x = rj_path(dj, f->path);

			if (x)
				rc |= pcb_lines_add(&sl->series[k], line, v,
						    (f->scale ? f->scale : 1) * json_number_value(x),
						    0);
		}
		if (p->gain_var && base)
			rc |= gain_points(result, dj, base, line, v, &sl->gain);
	}
	return rc;
}

/* its lines into f, the gnuplot variables of their counts into plot->vars */
static int write_sweep(FILE *f, struct sweep_lines *sl, const struct pcb_model_plot *p,
		       struct pcb_plot *plot)
{
	int ns = pcb_lines_write(f, &sl->gain), total = ns;
	size_t at = 0;

	if (p->gain_var)
		at += snprintf(plot->vars + at, sizeof(plot->vars) - at, "%s=%d", p->gain_var, ns);
	/* the groups in one file: gnuplot's index counts blocks across them */
	for (int k = 0; k < sl->nseries; k++) {
		int n = pcb_lines_write(f, &sl->series[k]);

		/* -1 (out of memory) in any makes pcb_plot_close() fail */
		total = total < 0 || n < 0 ? -1 : total + n;
		if (p->series[k].var && at < sizeof(plot->vars))
			at += snprintf(plot->vars + at, sizeof(plot->vars) - at, "%s%s=%d",
				       at ? "; " : "", p->series[k].var, sl->series[k].ns);
	}
	return total;
}

/* a model's figure against a swept key (model_output.h) */
static int model_plot_data(json_t *result, const struct pcb_model_plot *p, const char *dir,
			   struct pcb_plot_set *set, char *err, size_t errlen)
{
	struct sweep_lines sl = { 0 };
	int rc, dx = 0, any;

	while (sl.nseries < PCB_MODEL_PLOT_SERIES && p->series[sl.nseries].field.path)
		sl.nseries++;
	rc = sweep_points(result, p, &sl);
	any = sl.gain.ns;
	for (int k = 0; k < sl.nseries; k++) {
		int n = pcb_lines_distinct_x(&sl.series[k]);

		dx = n > dx ? n : dx;
		any |= sl.series[k].ns;
	}
	if (!rc && pcb_lines_distinct_x(&sl.gain) + dx >= 2 && any) {
		FILE *f = pcb_plot_add(set, dir, p->name, p->name, err, errlen);

		if (f) {
			set->plot[set->n - 1].series = write_sweep(f, &sl, p, &set->plot[set->n - 1]);
			json_t *ctx = rj_top_context(result);

			/* the run and the means its Diff % are of, before the model's words */
			snprintf(set->plot[set->n - 1].title, sizeof(set->plot[0].title),
				 "%s, %s, %s: %s (Diff %% of %s cycles)",
				 rj_sc_name(rj_top_scenario(result)), rj_ctx_host(ctx),
				 rj_ctx_started(ctx), p->title,
				 pcb_means_word(pcb_result_raw(result)));
			rc = pcb_plot_close(set, f, err, errlen);
		} else {
			rc = -1;
		}
	} else if (rc) {
		snprintf(err, errlen, "out of memory");
	}
	pcb_lines_free(&sl.gain);
	for (int k = 0; k < sl.nseries; k++)
		pcb_lines_free(&sl.series[k]);
	return rc;
}

int pcb_plot_model_data(json_t *result, const char *dir, struct pcb_plot_set *set,
			    char *err, size_t errlen)
{
	const struct pcb_model *m = pcb_result_model(result);

	for (const struct pcb_model_plot *p = pcb_model_output(m).plots; p && p->name; p++)
		if (model_plot_data(result, p, dir, set, err, errlen) < 0)
			return -1;
	return 0;
}
