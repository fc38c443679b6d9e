/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "../../scenario/scenario.h"
#include "../read/query.h"
#include "layout.h"

int pcb_first_col(const char *s)
{
	int n = (int)strlen(s) + 2;

	return n < 24 ? 24 : n;
}

int pcb_title_col(FILE *out, const char *title, int rest, const struct pcb_table_opts *opts,
		  const char **head)
{
	int w = pcb_first_col(title);

	*head = title;
	if (!opts->width || w + rest <= opts->width)
		return w;
	fprintf(out, "%s\n", title);
	*head = "";
	return 24;
}

void pcb_subtracted_text(json_t *result, double base, char *buf, size_t len)
{
	double lo, hi;

	pcb_result_subtracted(result, base, &lo, &hi);
	if (hi > lo)
		snprintf(buf, len, "%.1f-%.1f", lo, hi);
	else
		snprintf(buf, len, "%.1f", lo);
}

const char *pcb_runs_setting(json_t *result, char *buf, size_t len)
{
	const char *runs = pcb_setting(result, K_RUN_RUNS);

	if (strcmp(runs, "auto"))
		return runs;
	snprintf(buf, len, "auto (%d to %s, until every row's 95%% interval is within %s%% of "
		 "its mean)", PCB_AUTO_MIN_RUNS, pcb_setting(result, K_RUN_MAX_RUNS),
		 pcb_setting(result, K_RUN_CI_TARGET));
	return buf;
}

/* a row's STDDEV, with the noise gate's mark where its run means spread past run.max_cv */
void pcb_stddev_text(char *buf, size_t len, double sd, json_t *unstable, int *noisy)
{
	int mark = json_is_true(unstable);

	snprintf(buf, len, "%.2f%s", sd, mark ? PCB_UNSTABLE_MARK : "");
	*noisy |= mark;
}

void pcb_unstable_legend(FILE *out, json_t *result)
{
	fprintf(out, PCB_UNSTABLE_MARK " unstable: the run means' coefficient of variation is "
		"above run.max_cv (%s%%); more runs\n  (run.runs = auto) or a quieter machine "
		"narrow it\n\n", pcb_setting(result, K_RUN_MAX_CV));
}
