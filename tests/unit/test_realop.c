/* SPDX-License-Identifier: MIT */
/*
 * The real operations run and report what they ran: every kind completes
 * its runs on this machine with a positive, finite figure per run, the
 * fault kind rounds its pages up to whole regions, and requests out of
 * range are refused with a message. No figure is compared with a bound:
 * what an operation costs is the machine's.
 */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../../harness/measure/realop.h"

static void one(enum pcb_realop_kind kind, uint64_t ops, uint64_t want_ops)
{
	struct pcb_realop_req req = { .kind = kind, .cpu = -1, .peer_cpu = -1, .runs = 3,
				      .ops = ops };
	struct pcb_realop_result res;
	char err[256] = "";
	const char *name = pcb_realop_desc[kind].name;

	CHECK(pcb_realop_measure(&req, &res, err, sizeof(err)) == 0, "%s: %s", name, err);
	CHECK(res.runs == 3 && res.ops == want_ops, "%s: %d runs of %llu", name, res.runs,
	      (unsigned long long)res.ops);
	for (int r = 0; r < res.runs; r++)
		CHECK(res.run[r] > 0 && isfinite(res.run[r]), "%s: run %d: %f", name, r, res.run[r]);
	CHECK(res.min <= res.mean && isfinite(res.stddev) && res.stddev >= 0,
	      "%s: mean %f min %f stddev %f", name, res.mean, res.min, res.stddev);
	CHECK(pcb_realop_find(name) == (int)kind, "%s: found by name", name);
}

int main(void)
{
	struct pcb_realop_req bad = { .kind = PCB_REALOP_MMAP, .cpu = -1, .peer_cpu = -1, .runs = 0 };
	struct pcb_realop_result res;
	char err[256] = "";

	one(PCB_REALOP_MMAP, 2000, 2000);
	one(PCB_REALOP_MMAP_WRITE, 2000, 2000);
	one(PCB_REALOP_FAULT, 100, PCB_REALOP_FAULT_PAGES);
	one(PCB_REALOP_TCP_RR, 2000, 2000);
	one(PCB_REALOP_TCP_STREAM, 500, 500);

	CHECK(pcb_realop_measure(&bad, &res, err, sizeof(err)) < 0 && strstr(err, "out of range"),
	      "0 runs refused: '%s'", err);
	bad.runs = 1;
	bad.kind = PCB_REALOPS;
	CHECK(pcb_realop_measure(&bad, &res, err, sizeof(err)) < 0, "an unknown kind refused");
	bad.kind = PCB_REALOP_MMAP;
	bad.cpu = 100000;
	CHECK(pcb_realop_measure(&bad, &res, err, sizeof(err)) < 0 &&
	      strstr(err, "sched_setaffinity"), "a CPU that is not there: '%s'", err);
	CHECK(pcb_realop_find("no-such-op") == -1, "unknown name");
	return check_summary();
}
