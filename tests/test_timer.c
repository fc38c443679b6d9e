/* SPDX-License-Identifier: MIT */
/*
 * The timer's instruction sequences (run.timer): every site the build
 * listed reads as the harness's sequence, and after pcb_timer_set() as the
 * kernel's rdtsc_ordered() picks on this CPU (rdtscp with CPUID's RDTSCP,
 * else lfence; rdtsc), and back. The encodings are the SDM's, written
 * here apart from tsc.c's.
 */
#include <cpuid.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "harness/measure/tsc.h"
#include "testing.h"

extern struct pcb_tsc_site __start_pcb_tsc_sites[] __attribute__((weak));
extern struct pcb_tsc_site __stop_pcb_tsc_sites[] __attribute__((weak));

/* one instruction of a site, by its encoding */
static const struct insn {
	const char *name;
	unsigned char len;
	unsigned char bytes[3];
} insns[] = {
	{ "lfence", 3, { 0x0f, 0xae, 0xe8 } },
	{ "rdtscp", 3, { 0x0f, 0x01, 0xf9 } },
	{ "rdtsc", 2, { 0x0f, 0x31 } },
	{ "nop", 1, { 0x90 } },
	{ "nopl", 3, { 0x0f, 0x1f, 0x00 } },
};

/* a site's 6 bytes as mnemonics ("lfence; rdtsc; nop"), or "?" */
static void decode(const unsigned char *p, char *out, size_t len)
{
	size_t at = 0, n = 0;

	out[0] = 0;
	while (at < PCB_TSC_SITE_BYTES) {
		size_t i;

		for (i = 0; i < sizeof(insns) / sizeof(insns[0]); i++)
			if (at + insns[i].len <= PCB_TSC_SITE_BYTES &&
			    !memcmp(p + at, insns[i].bytes, insns[i].len))
				break;
		if (i == sizeof(insns) / sizeof(insns[0])) {
			snprintf(out, len, "?");
			return;
		}
		n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "; " : "", insns[i].name);
		at += insns[i].len;
	}
}

static bool has_rdtscp(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
}

/* every site reads as want_start or want_end by its kind; the number of sites */
static int check_sites(const char *mode, const char *want_start, const char *want_end)
{
	int n = 0;

	for (struct pcb_tsc_site *e = __start_pcb_tsc_sites; e && e < __stop_pcb_tsc_sites; e++) {
		const char *want = e->kind == PCB_TSC_SITE_END ? want_end : want_start;
		char got[64];

		decode((const unsigned char *)e->code, got, sizeof(got));
		CHECK(!strcmp(got, want), "%s: site %d (%s) reads %s, not %s", mode, n,
		      e->kind == PCB_TSC_SITE_END ? "end" : "start", got, want);
		n++;
	}
	return n;
}

/* a timed region in the current mode: its reads advance and are close */
static void check_reads(const char *mode)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 1000; i++) {
		uint64_t t0 = pcb_tsc_start(), t1 = pcb_tsc_end();

		CHECK(t1 >= t0, "%s: the end read %llu before the start %llu", mode,
		      (unsigned long long)t1, (unsigned long long)t0);
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	CHECK(best < 100000, "%s: the shortest empty region is %llu ticks", mode,
	      (unsigned long long)best);
}

int main(void)
{
	const char *kernel = has_rdtscp() ? "rdtscp; nopl" : "lfence; rdtsc; nop";
	int n;

	CHECK(pcb_timer_get() == PCB_TIMER_HARNESS, "the default timer is the harness's");
	n = check_sites("harness", "nop; lfence; rdtsc", "rdtscp; lfence");
	CHECK(n >= 2, "%d timer sites listed", n);
	check_reads("harness");

	if (pcb_timer_set(PCB_TIMER_KERNEL) < 0) {
		/* a machine that refuses to make the text writable: run.timer = kernel errs there */
		printf("skip: the timer's code cannot be rewritten here\n");
		check_summary();
		return 77;
	}
	CHECK(pcb_timer_get() == PCB_TIMER_KERNEL, "the timer is the kernel's once set");
	CHECK(check_sites("kernel", kernel, kernel) == n, "the same sites");
	check_reads("kernel");
	CHECK(strstr(pcb_timer_insns(PCB_TIMER_KERNEL), has_rdtscp() ? "rdtscp ... rdtscp" :
		     "lfence; rdtsc ... lfence; rdtsc") != NULL, "the tables name %s",
	      pcb_timer_insns(PCB_TIMER_KERNEL));

	CHECK(pcb_timer_set(PCB_TIMER_HARNESS) == 0, "back to the harness's");
	CHECK(check_sites("harness again", "nop; lfence; rdtsc", "rdtscp; lfence") == n,
	      "the same sites");
	check_reads("harness again");
	CHECK(!strcmp(pcb_timer_name(PCB_TIMER_KERNEL), "kernel") &&
	      !strcmp(pcb_timer_name(PCB_TIMER_HARNESS), "harness"), "the timers' names");
	return check_summary();
}
