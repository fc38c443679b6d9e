/* SPDX-License-Identifier: MIT */
/*
 * The timer's instruction sequences (run.timer): every site the build
 * listed reads as the harness's sequence, and after pcb_timer_set() as the
 * kernel's rdtsc_ordered() picks on this CPU (rdtscp with CPUID's RDTSCP,
 * else lfence; rdtsc), and back. The encodings are the SDM's, written
 * here apart from tsc.c's. Then a rewrite that mprotect() refuses
 * (wrapped at link time, -Wl,--wrap): at the first call, part-way at a
 * site's unprotect or its protect again, and part-way with the putting
 * back refused too. Each is reported, and leaves every site as it was, or
 * (the last) has the next rewrite redo every site whatever its mode.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/tsc.h"
#include "testing.h"

extern struct pcb_tsc_site __start_pcb_tsc_sites[] __attribute__((weak));
extern struct pcb_tsc_site __stop_pcb_tsc_sites[] __attribute__((weak));

int __real_mprotect(void *addr, size_t len, int prot);

/* mprotect()'s calls [fail_from, fail_to) refused, counted from 0 */
static int nr_calls, fail_from = -1, fail_to = -1;

int __wrap_mprotect(void *addr, size_t len, int prot)
{
	int call = nr_calls++;

	if (call >= fail_from && call < fail_to) {
		errno = EACCES;
		return -1;
	}
	return __real_mprotect(addr, len, prot);
}

static void refuse_calls(int from, int to)
{
	nr_calls = 0;
	fail_from = from;
	fail_to = to;
}

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

/* every site's bytes, in table order */
static unsigned char *snapshot(int n)
{
	unsigned char *b = malloc((size_t)n * PCB_TSC_SITE_BYTES);
	int i = 0;

	for (struct pcb_tsc_site *e = __start_pcb_tsc_sites; b && i < n; e++, i++)
		memcpy(b + i * PCB_TSC_SITE_BYTES, (const void *)e->code, PCB_TSC_SITE_BYTES);
	return b;
}

/* the sites hold was (each as it was), or how many differ */
static int sites_changed(const unsigned char *was, int n)
{
	unsigned char *now = snapshot(n);
	int changed = 0;

	for (int i = 0; now && i < n; i++)
		changed += !!memcmp(now + i * PCB_TSC_SITE_BYTES, was + i * PCB_TSC_SITE_BYTES,
				    PCB_TSC_SITE_BYTES);
	free(now);
	return changed;
}

/* a rewrite to the kernel's timer with mprotect() calls [from, to) refused */
static void refused(const char *what, int from, int to, const unsigned char *was, int n,
		    const char *says)
{
	char why[256] = "";
	int rc;

	refuse_calls(from, to);
	rc = pcb_timer_set(PCB_TIMER_KERNEL, why, sizeof(why));
	refuse_calls(-1, -1);
	CHECK(rc == -EACCES, "%s: pcb_timer_set() gives %d", what, rc);
	CHECK(strstr(why, says) != NULL, "%s: says '%s', not '%s'", what, why, says);
	CHECK(pcb_timer_get() == PCB_TIMER_HARNESS, "%s: the timer is no longer the harness's",
	      what);
	CHECK(sites_changed(was, n) == 0, "%s: %d of %d sites left rewritten", what,
	      sites_changed(was, n), n);
}

/* a rewrite refused part-way, then the putting back too: the next rewrite redoes them */
static void refused_twice(int site, const unsigned char *was, int n)
{
	char why[256] = "";
	int rc;

	refuse_calls(2 * site, 1 << 30);
	rc = pcb_timer_set(PCB_TIMER_KERNEL, why, sizeof(why));
	refuse_calls(-1, -1);
	CHECK(rc < 0 && strstr(why, "mixed") != NULL, "refused twice: %d '%s'", rc, why);
	CHECK(sites_changed(was, n) == site, "refused twice: %d sites rewritten, not %d",
	      sites_changed(was, n), site);
	CHECK(pcb_timer_set(PCB_TIMER_HARNESS, why, sizeof(why)) == 0 &&
	      sites_changed(was, n) == 0, "refused twice: the harness's timer set again leaves "
	      "%d sites mixed", sites_changed(was, n));
}

/* the refusals, where the text can be rewritten at all */
static void check_refusals(int n)
{
	unsigned char *was = snapshot(n);
	/* the 100th site, as a build with that many has it, else the middle one */
	int site = n > 100 ? 99 : n / 2;
	char buf[64];

	if (!was)
		return;
	refused("fully refused", 0, 1 << 30, was, n, "site 1 of");
	refused("part-way, the unprotect", 2 * site, 2 * site + 1, was, n, "put back");
	snprintf(buf, sizeof(buf), "site %d of %d refused", site + 1, n);
	refused("part-way, the site's message", 2 * site, 2 * site + 1, was, n, buf);
	refused("part-way, the protect again", 2 * site + 1, 2 * site + 2, was, n, "put back");
	refused_twice(site, was, n);
	free(was);
}

int main(void)
{
	char why[256];
	const char *kernel = has_rdtscp() ? "rdtscp; nopl" : "lfence; rdtsc; nop";
	int n;

	CHECK(pcb_timer_get() == PCB_TIMER_HARNESS, "the default timer is the harness's");
	n = check_sites("harness", "nop; lfence; rdtsc", "rdtscp; lfence");
	CHECK(n >= 2, "%d timer sites listed", n);
	check_reads("harness");

	if (pcb_timer_set(PCB_TIMER_KERNEL, why, sizeof(why)) < 0) {
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

	CHECK(pcb_timer_set(PCB_TIMER_HARNESS, why, sizeof(why)) == 0, "back to the harness's");
	CHECK(check_sites("harness again", "nop; lfence; rdtsc", "rdtscp; lfence") == n,
	      "the same sites");
	check_reads("harness again");
	CHECK(!strcmp(pcb_timer_name(PCB_TIMER_KERNEL), "kernel") &&
	      !strcmp(pcb_timer_name(PCB_TIMER_HARNESS), "harness"), "the timers' names");
	check_refusals(n);
	return check_summary();
}
