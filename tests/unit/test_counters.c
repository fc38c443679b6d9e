/* SPDX-License-Identifier: MIT */
/*
 * Perf counters as this machine has them: events libpfm4 does not know are
 * refused by name; software events count for a thread that ran and slept;
 * hardware events are counted where perf_event_open() takes them and come out
 * <not supported> where it does not, whatever libpfm4 said.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "testing.h"
#include "../../harness/measure/counters.h"

static struct pcb_counters_cfg cfg;
static struct pcb_counter_value val[PCB_MAX_EVENTS];
static uint64_t snap0[PCB_MAX_EVENTS], snap1[PCB_MAX_EVENTS];
static volatile uint64_t sink;

static void *measured(void *arg)
{
	struct pcb_counters c;

	(void)arg;
	pcb_counters_open(&c, &cfg);
	pcb_counters_start(&c);
	pcb_counters_snap(&c, snap0);
	for (int round = 0; round < 3; round++) {
		for (uint64_t i = 0; i < 20000000; i++)
			sink += i;
		usleep(2000);		/* each sleep is a context switch */
	}
	pcb_counters_snap(&c, snap1);
	pcb_counters_stop(&c, val);
	pcb_counters_close(&c);
	return NULL;
}

static int find(const char *name)
{
	for (int i = 0; i < cfg.n; i++)
		if (!strcmp(cfg.ev[i].name, name))
			return i;
	return -1;
}

int main(void)
{
	static const char *const hw[] = { "cycles", "instructions", "cache-misses", "branch-misses" };
	char err[256];
	pthread_t t;

	/* names */
	CHECK(pcb_counters_parse("no-such-event", 0, &cfg, err, sizeof(err)) < 0 &&
	      strstr(err, "'no-such-event'"), "unknown event named: %s", err);
	CHECK(pcb_counters_parse("task-clock,task-clock", 0, &cfg, err, sizeof(err)) < 0 &&
	      strstr(err, "twice"), "duplicate: %s", err);
	CHECK(pcb_counters_parse("", 0, &cfg, err, sizeof(err)) == 0 && cfg.n == 0, "empty list");
	CHECK(pcb_counters_parse("cycles, instructions,cache-misses branch-misses,task-clock,"
				 "context-switches,page-faults", 0, &cfg, err, sizeof(err)) == 0 &&
	      cfg.n == 7, "%s", err);
	CHECK(cfg.ev[find("cycles")].attr.exclude_kernel, "user mode by default");
	CHECK(!cfg.ev[find("context-switches")].attr.exclude_kernel,
	      "software events count the kernel's switches");
	{
		struct pcb_counters_cfg k;

		CHECK(pcb_counters_parse("cycles", 1, &k, err, sizeof(err)) == 0 &&
		      !k.ev[0].attr.exclude_kernel, "kernel mode when asked");
	}

	pthread_create(&t, NULL, measured, NULL);
	pthread_join(t, NULL);

	/* software events: counted and non-zero for a thread that ran */
	{
		int tc = find("task-clock"), cs = find("context-switches");

		CHECK(val[tc].status == 0 && pcb_counter_status_text(&val[tc]) == NULL &&
		      val[tc].value > 1000000, "task-clock %lu ns, status %d",
		      (unsigned long)val[tc].value, val[tc].status);
		CHECK(val[cs].status == 0 && val[cs].value >= 3, "context-switches %lu",
		      (unsigned long)val[cs].value);
		CHECK(val[tc].running_ns > 0 && val[tc].running_ns <= val[tc].enabled_ns,
		      "running %lu enabled %lu", (unsigned long)val[tc].running_ns,
		      (unsigned long)val[tc].enabled_ns);
		CHECK(snap1[tc] > snap0[tc], "per-call reads advance: %lu -> %lu",
		      (unsigned long)snap0[tc], (unsigned long)snap1[tc]);
	}

	/* hardware events: whatever perf_event_open() says, never libpfm4 */
	for (size_t h = 0; h < sizeof(hw) / sizeof(hw[0]); h++) {
		int i = find(hw[h]), probe = pcb_counters_probe(hw[h]);
		const char *text = pcb_counter_status_text(&val[i]);

		if (probe == 0) {
			CHECK(val[i].status == 0 && (text == NULL || !strcmp(text, "<not counted>")),
			      "%s opens here, status %d", hw[h], val[i].status);
			if (!strcmp(hw[h], "instructions") && !text)
				CHECK(val[i].value > 60000000, "instructions %lu for 60M adds",
				      (unsigned long)val[i].value);
		} else {
			CHECK(val[i].status == probe && text && !strcmp(text, "<not supported>"),
			      "%s: status %d, probe %d, text %s", hw[h], val[i].status, probe,
			      text ? text : "(counted)");
			printf("%s: <not supported> here (%s)\n", hw[h], strerror(-probe));
		}
	}

	/* a counter that never ran */
	{
		struct pcb_counter_value idle = { .status = 0, .enabled_ns = 100, .running_ns = 0 };

		CHECK(!strcmp(pcb_counter_status_text(&idle), "<not counted>"), "not counted");
	}
	CHECK(pcb_counters_probe("no-such-event") == -ENOENT, "probe of an unknown name");
	return check_summary();
}
