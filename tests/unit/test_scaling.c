/* SPDX-License-Identifier: MIT */
/*
 * The scaling summary (will-it-scale's) of a worker-count sweep, on a
 * hand-made result: each function's ideal is its cycles at the fewest
 * workers, efficiency ideal over measured; operations a second against
 * the fewest workers' rate times the workers; a line of one worker count
 * gets no rows.
 */
#include <math.h>
#include <string.h>

#include "testing.h"
#include "../../harness/output/read/scaling.h"

static const char result_text[] =
	"{\"designs\": ["
	" {\"design\": \"spinlock workers=1\", \"design_name\": \"spinlock\","
	"  \"config\": \"workers=1\", \"workers\": [{}], \"ops\": 6000, \"runs\": 6,"
	"  \"run_seconds\": 0.001},"
	" {\"design\": \"spinlock workers=0-1\", \"design_name\": \"spinlock\","
	"  \"config\": \"workers=0-1\", \"workers\": [{}, {}], \"ops\": 9000, \"runs\": 6,"
	"  \"run_seconds\": 0.001},"
	" {\"design\": \"spinlock workers=0-3 burst=8\", \"design_name\": \"spinlock\","
	"  \"config\": \"workers=0-3 burst=8\", \"workers\": [{}, {}, {}, {}]},"
	" {\"design\": \"local_lock workers=0-3\", \"design_name\": \"local_lock\","
	"  \"config\": \"workers=0-3\", \"workers\": [{}, {}, {}, {}]}],"
	" \"functions\": ["
	" {\"design\": \"spinlock workers=1\", \"function\": \"page_fault\", \"avg_cycles\": 150},"
	" {\"design\": \"spinlock workers=0-1\", \"function\": \"page_fault\", \"avg_cycles\": 200},"
	" {\"design\": \"spinlock workers=0-3 burst=8\", \"function\": \"page_fault\","
	"  \"avg_cycles\": 400},"
	" {\"design\": \"local_lock workers=0-3\", \"function\": \"page_fault\", \"avg_cycles\": 90}"
	"]}";

int main(void)
{
	static struct pcb_scaling s;
	json_error_t e;
	json_t *r = json_loads(result_text, 0, &e);

	CHECK(r != NULL, "fixture: %s", e.text);
	if (!r)
		return check_summary();
	/* spinlock at 1 and 2 workers: a line; burst=8 and local_lock: one count each, none */
	CHECK(pcb_scaling_rows(r, &s) == 4, "rows: %d", s.n);
	CHECK(!strcmp(s.row[0].line, "spinlock"), "line: %s", s.row[0].line);
	CHECK(s.row[0].function && !strcmp(s.row[0].function, "page_fault"), "function");
	CHECK(s.row[0].workers == 1, "workers %d", s.row[0].workers);
	CHECK_NEAR(s.row[0].efficiency, 1.0, 1e-12);
	/* at 1 worker: 6000 ops over 6 runs of 1 ms, 10^6 a second */
	CHECK(s.row[1].function == NULL, "the rate row");
	CHECK_NEAR(s.row[1].value, 1e6, 1e-6);
	CHECK_NEAR(s.row[1].ideal, 1e6, 1e-6);
	CHECK(s.row[2].workers == 2, "workers %d", s.row[2].workers);
	CHECK_NEAR(s.row[2].value, 200, 1e-12);
	CHECK_NEAR(s.row[2].ideal, 150, 1e-12);
	CHECK_NEAR(s.row[2].efficiency, 0.75, 1e-12);
	/* at 2 workers 1.5*10^6 against a linear 2*10^6 */
	CHECK_NEAR(s.row[3].value, 1.5e6, 1e-6);
	CHECK_NEAR(s.row[3].ideal, 2e6, 1e-6);
	CHECK_NEAR(s.row[3].efficiency, 0.75, 1e-12);
	json_decref(r);
	return check_summary();
}
