/* SPDX-License-Identifier: MIT */
/*
 * The line probe (harness/measure/xline.c) on this machine: a positive
 * figure between two CPUs where there are two, none between a CPU and
 * itself, none on a topology whose CPUs cannot be pinned to, and a
 * partner that cannot run refused rather than waited for.
 */
#include "harness/measure/xline.h"
#include "testing.h"

int main(void)
{
	struct pcb_topo topo, synthetic;
	char err[256];
	double ticks;

	CHECK(pcb_topo_load(&topo, NULL, err, sizeof(err)) == 0, "%s", err);
	CHECK(pcb_xline_ticks(&topo, 0, 0, 1e9) < 0, "no line between a CPU and itself");
	if (topo.nr_cpus >= 2) {
		unsigned int a = (unsigned int)hwloc_bitmap_first(topo.all);
		unsigned int b = (unsigned int)hwloc_bitmap_next(topo.all, (int)a);

		ticks = pcb_xline_ticks(&topo, a, b, 1e9);
		CHECK(ticks > 0, "CPUs %u and %u: %g ticks a transfer", a, b, ticks);
		/* a CPU this machine does not have: the thread there cannot be pinned */
		CHECK(pcb_xline_ticks(&topo, a, 100000, 1e9) < 0, "a CPU the machine lacks");
	} else {
		printf("one CPU: no pair to probe\n");
	}
	CHECK(pcb_topo_load(&synthetic, "numa:2 core:4 pu:1", err, sizeof(err)) == 0, "%s", err);
	CHECK(pcb_xline_ticks(&synthetic, 0, 1, 1e9) < 0, "a synthetic topology cannot be pinned");
	pcb_topo_destroy(&synthetic);
	pcb_topo_destroy(&topo);
	return check_summary();
}
