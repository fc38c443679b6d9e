/* SPDX-License-Identifier: MIT */
/*
 * The vmstat model's torture (tests/unit/torture.h): every design in every
 * variant, workers updating counters while another thread folds every
 * CPU's differences, the count invariant checked at each quiescent point;
 * then the check is shown to catch a count lost and one counted twice.
 */
#include "testing.h"
#include "torture.h"
#include "vmstat.h"

#define THRESHOLD 12

/* the check at work: one CPU's updates, then a count lost and one counted twice */
static void check_catches(const struct pcb_design *d)
{
	struct vmstat_config cfg = { .threshold = THRESHOLD };
	struct torture t = { .m = &vmstat_model, .d = d, .v = d->variant[0] };
	struct zone *zone;
	char msg[256];

	snprintf(t.name, sizeof(t.name), "vmstat %s: the check", d->name);
	if (torture_set_up(&t, &cfg) < 0)
		return;
	zone = t.target;
	t.w[0]->ops_limit = 1000;
	t.v->run(t.w[0]);
	CHECK(torture_check(&t, msg, sizeof(msg)) == 0, "%s: %s", t.name, msg);
	atomic_fetch_add(&zone->vm_stat[NR_MLOCK], 1);
	CHECK(torture_check(&t, msg, sizeof(msg)) < 0 && strstr(msg, "counted twice"), "%s: %s",
	      t.name, msg);
	atomic_fetch_sub(&zone->vm_stat[NR_MLOCK], 2);
	CHECK(torture_check(&t, msg, sizeof(msg)) < 0 && strstr(msg, "lost"), "%s: %s", t.name,
	      msg);
	torture_tear_down(&t);
}

int main(void)
{
	struct vmstat_config cfg[PCB_MAX_VARIANTS];
	int n = 0;

	/* one configuration a variant: the irq_model, variants.def's one axis */
	for (int irq = 0; irq < 3; irq++)
		cfg[n++] = (struct vmstat_config){ .irq_model = irq, .threshold = THRESHOLD };
	pcb_torture(&vmstat_model, cfg, n, 20000);
	for (int i = 0; vmstat_model.designs[i]; i++)
		check_catches(vmstat_model.designs[i]);
	return check_summary();
}
