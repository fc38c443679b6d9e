/* SPDX-License-Identifier: MIT */
#include <cpuid.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tsc.h"

#define OVERHEAD_SAMPLES 200000

extern struct pcb_tsc_site __start_pcb_tsc_sites[] __attribute__((weak));
extern struct pcb_tsc_site __stop_pcb_tsc_sites[] __attribute__((weak));

static enum pcb_timer timer_mode = PCB_TIMER_HARNESS;

int pcb_text_poke(void *addr, const void *bytes, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(page - 1);
	size_t span = (uintptr_t)addr + len - start;

	if (mprotect((void *)start, span, PROT_READ | PROT_WRITE | PROT_EXEC) < 0)
		return -errno;
	memcpy(addr, bytes, len);
	__builtin___clear_cache((char *)addr, (char *)addr + len);
	if (mprotect((void *)start, span, PROT_READ | PROT_EXEC) < 0)
		return -errno;
	return 0;
}

/* X86_FEATURE_RDTSCP: CPUID 0x80000001, EDX bit 27 */
static bool cpu_has_rdtscp(void)
{
	/* read once: CPUID is a VM exit on a guest, and every site asks */
	static int has = -1;
	unsigned int a, b, c, d;

	if (has < 0)
		has = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
	return has;
}

/* a site's bytes in a mode, by its kind */
static const unsigned char *site_bytes(enum pcb_timer mode, unsigned long kind)
{
	static const unsigned char harness[2][PCB_TSC_SITE_BYTES] = {
		{ 0x90, 0x0f, 0xae, 0xe8, 0x0f, 0x31 },	/* nop; lfence; rdtsc */
		{ 0x0f, 0x01, 0xf9, 0x0f, 0xae, 0xe8 },	/* rdtscp; lfence */
	};
	/* rdtsc_ordered(): ALTERNATIVE_2's choice, padded after with a nop */
	static const unsigned char rdtscp[PCB_TSC_SITE_BYTES] = {
		0x0f, 0x01, 0xf9, 0x0f, 0x1f, 0x00,		/* rdtscp; nopl (%rax) */
	};
	static const unsigned char lfence_rdtsc[PCB_TSC_SITE_BYTES] = {
		0x0f, 0xae, 0xe8, 0x0f, 0x31, 0x90,		/* lfence; rdtsc; nop */
	};

	if (mode == PCB_TIMER_HARNESS)
		return harness[kind == PCB_TSC_SITE_END];
	return cpu_has_rdtscp() ? rdtscp : lfence_rdtsc;
}

/* sites [0, n) written for mode; the number written whole, -errno of the first refusal in *rc */
static int write_sites(enum pcb_timer mode, int n, int *rc)
{
	const struct pcb_tsc_site *e = __start_pcb_tsc_sites;
	int i;

	*rc = 0;
	for (i = 0; i < n; i++) {
		*rc = pcb_text_poke((void *)e[i].code, site_bytes(mode, e[i].kind),
				    PCB_TSC_SITE_BYTES);
		if (*rc < 0)
			break;
	}
	return i;
}

/*
 * As the kernel's text_poke_bp() leaves no site half patched, a rewrite
 * refused part-way is undone before anything runs on the sites: those
 * rewritten (and the refused one, whose bytes may be in) get the mode's
 * bytes back. Where that is refused too, the sites are mixed, and the
 * next pcb_timer_set() rewrites every one of them whatever its mode.
 */
int pcb_timer_set(enum pcb_timer mode, char *why, size_t len)
{
	static bool mixed;
	int nr = (int)(__stop_pcb_tsc_sites - __start_pcb_tsc_sites), done, rc, brc;

	if (mode == timer_mode && !mixed)
		return 0;
	done = write_sites(mode, nr, &rc);
	if (!rc) {
		timer_mode = mode;
		mixed = false;
		return 0;
	}
	write_sites(timer_mode, done + 1, &brc);
	mixed = mixed || brc < 0;
	snprintf(why, len, "site %d of %d refused: %s; %s", done + 1, nr, strerror(-rc),
		 brc < 0 ? "putting back those before it was refused too: they are mixed, "
		 "and no run is started on them" : done ? "those before it are put back" :
		 "none was rewritten");
	return rc;
}

enum pcb_timer pcb_timer_get(void)
{
	return timer_mode;
}

const char *pcb_timer_name(enum pcb_timer mode)
{
	return mode == PCB_TIMER_KERNEL ? "kernel" : "harness";
}

const char *pcb_timer_insns(enum pcb_timer mode)
{
	if (mode == PCB_TIMER_HARNESS)
		return "lfence; rdtsc ... rdtscp; lfence";
	return cpu_has_rdtscp() ? "rdtscp ... rdtscp (rdtsc_ordered())" :
				  "lfence; rdtsc ... lfence; rdtsc (rdtsc_ordered())";
}

static double mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* a (ns, tsc) pair read as close together as the clock allows */
static void paired_read(double *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	*ns = 0;
	*tsc = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t a = pcb_tsc_start();
		double t = mono_raw_ns();
		uint64_t b = pcb_tsc_end();

		if (b - a < best) {
			best = b - a;
			*ns = t;
			*tsc = a + (b - a) / 2;
		}
	}
}

static double measure_hz(int ms)
{
	double ns0 = 0, ns1 = 0;
	uint64_t t0 = 0, t1 = 0;

	paired_read(&ns0, &t0);
	while (mono_raw_ns() - ns0 < ms * 1e6)
		;
	paired_read(&ns1, &t1);
	return (double)(t1 - t0) * 1e9 / (ns1 - ns0);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * The TSC's step: the gcd of the increments between reads that are not
 * rare. Back to back, every increment may be the read's own latency, which
 * a counter stepping by that much cannot be told from, so reads are a
 * varying number of dependent adds apart and land on every phase of a
 * counter that steps by one. A counter a host synthesizes steps by some
 * ticks with the odd 1-tick catch-up (an EPYC guest: 21 ticks, and 33
 * increments of 1 in 6 million), which a plain gcd would take for a step
 * of 1; increments seen in fewer than one read in a thousand, and those
 * long enough to hold an interruption, are left out.
 */
#define STEP_MAX_TICKS	4096
#define STEP_READS	200000

uint64_t pcb_tsc_step_of(const uint32_t *seen, uint64_t max, uint64_t n)
{
	uint64_t g = 0;

	for (uint64_t d = 1; d <= max; d++)
		if (seen[d] && (uint64_t)seen[d] * 1000 >= n)
			g = gcd64(g, d);
	return g ? g : 1;
}

static void measure_step(struct pcb_clock *clk)
{
	static uint32_t seen[STEP_MAX_TICKS + 1];
	uint64_t mn = UINT64_MAX, n = 0;

	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < STEP_READS; i++) {
		uint64_t t0, t1, d, x = 0;

		t0 = pcb_tsc_now();
		/* i % 61 adds in a chain between the reads: every phase; none: back to back */
		for (int k = i % 61; k > 0; k--)
			__asm__ __volatile__("add $1, %0" : "+r"(x));
		t1 = pcb_tsc_now();
		d = t1 - t0;
		if (!d || d > STEP_MAX_TICKS)
			continue;
		seen[d]++;
		n++;
		if (i % 61 == 0 && d < mn)
			mn = d;
	}
	clk->step = pcb_tsc_step_of(seen, STEP_MAX_TICKS, n);
	clk->read_min = mn == UINT64_MAX ? 0 : mn;
}

/* the region every figure pays for: the two reads and nothing between */
static double empty_region_mean(int samples, double subtract, double *stddev)
{
	double sum = 0, sum2 = 0;

	for (int i = 0; i < samples; i++) {
		uint64_t t0 = pcb_tsc_start();
		uint64_t t1 = pcb_tsc_end();
		double d = (double)(t1 - t0) - subtract;

		sum += d;
		sum2 += d * d;
	}
	if (stddev) {
		double m = sum / samples;

		/* standard error of the mean */
		*stddev = sqrt(fmax(0, sum2 / samples - m * m) / samples);
	}
	return sum / samples;
}

/* the q-quantile of n samples counted in c[], or max past the range */
static double count_quantile(const uint32_t *c, uint64_t n, double q, uint64_t max)
{
	uint64_t k = (uint64_t)(q * (double)(n - 1)), seen = 0;

	for (uint64_t v = 0; v < max; v++) {
		seen += c[v];
		if (seen > k)
			return (double)v;
	}
	return (double)max;
}

void pcb_overhead_measure(struct pcb_overhead *o, int samples)
{
	static __thread uint32_t counts[PCB_OVERHEAD_MAX_TICKS];

	memset(counts, 0, sizeof(counts));
	memset(o, 0, sizeof(*o));
	empty_region_mean(samples / 10 + 1, 0, NULL);	/* warm */
	for (int i = 0; i < samples; i++) {
		uint64_t t0 = pcb_tsc_start();
		uint64_t t1 = pcb_tsc_end();
		uint64_t d = t1 - t0;

		if (d < PCB_OVERHEAD_MAX_TICKS)
			counts[d]++;
		else
			o->outliers++;
	}
	pcb_overhead_from_counts(o, counts, PCB_OVERHEAD_MAX_TICKS, (uint64_t)samples, o->outliers);
}

void pcb_overhead_from_counts(struct pcb_overhead *o, const uint32_t *counts, uint64_t max,
			      uint64_t samples, uint64_t outliers)
{
	double sum = 0, n = 0;
	uint64_t limit;

	memset(o, 0, sizeof(*o));
	o->samples = samples;
	o->outliers = outliers;
	if (samples <= outliers)
		return;
	/* regions past the range are the longest: they only move the upper quantiles */
	o->median = count_quantile(counts, samples, 0.5, max);
	o->lo = count_quantile(counts, samples, 0.05, max);
	o->hi = count_quantile(counts, samples, 0.95, max);
	/*
	 * An empty region twice as long as the median was interrupted. The rest
	 * are averaged, not reduced to their median: on a TSC that advances in
	 * steps, a region reads as one step or the next by its phase, and only
	 * the mean of those reads is the region's cost.
	 */
	limit = (uint64_t)(2 * o->median) + 1;
	for (uint64_t v = 0; v < limit && v < max; v++) {
		sum += (double)v * counts[v];
		n += counts[v];
	}
	o->trimmed = n > 0 ? sum / n : o->median;
	o->set_aside = samples - (uint64_t)n;
}

double pcb_clock_overhead(enum pcb_timing mode)
{
	struct pcb_overhead o;

	(void)mode;	/* both modes pay one region: per call, or per batch */
	pcb_overhead_measure(&o, OVERHEAD_SAMPLES);
	return o.trimmed;
}

static int kernel_tsc_sysfs(struct pcb_clock *clk)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/tsc_freq_khz", "r");
	double khz;

	if (!f)
		return 0;
	if (fscanf(f, "%lf", &khz) == 1 && khz > 0) {
		clk->kernel_tsc_hz = khz * 1e3;
		clk->kernel_tsc_source = "sysfs tsc_freq_khz";
	}
	fclose(f);
	return clk->kernel_tsc_hz > 0;
}

/* the kernel's boot messages: "tsc: Refined TSC clocksource calibration" wins */
static int kernel_tsc_klog(struct pcb_clock *clk)
{
	static const char *const keys[] = {
		"tsc: Refined TSC clocksource calibration: ",
		"tsc: Detected ",
	};
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;

	if (len <= 0)
		return 0;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return 0;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len > 0) {
		buf[len] = 0;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && !clk->kernel_tsc_hz; k++) {
			char *p = strstr(buf, keys[k]);
			double mhz;

			if (p && sscanf(p + strlen(keys[k]), "%lf MHz", &mhz) == 1) {
				clk->kernel_tsc_hz = mhz * 1e6;
				clk->kernel_tsc_source = k == 0 ? "kernel log (refined calibration)"
								: "kernel log (detected)";
			}
		}
	}
	free(buf);
	return clk->kernel_tsc_hz > 0;
}

/* CPUID leaf 0x15: TSC/crystal ratio and the crystal clock */
static int kernel_tsc_cpuid(struct pcb_clock *clk)
{
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) < 0x15)
		return 0;
	__cpuid(0x15, a, b, c, d);
	if (!a || !b || !c)
		return 0;
	clk->kernel_tsc_hz = (double)c * b / a;
	clk->kernel_tsc_source = "CPUID leaf 0x15";
	return 1;
}

void pcb_clock_calibrate(struct pcb_clock *clk, int ms)
{
	memset(clk, 0, sizeof(*clk));
	clk->kernel_tsc_source = "unknown";
	if (!kernel_tsc_sysfs(clk) && !kernel_tsc_klog(clk))
		kernel_tsc_cpuid(clk);

	clk->tsc_hz = measure_hz(ms);
	measure_step(clk);
	for (int m = PCB_TIMING_CALL; m <= PCB_TIMING_BATCH; m++) {
		clk->overhead[m] = pcb_clock_overhead((enum pcb_timing)m);
		clk->residual[m] = empty_region_mean(OVERHEAD_SAMPLES, clk->overhead[m],
						     &clk->residual_stddev[m]);
	}
}

double pcb_clock_ns(const struct pcb_clock *clk, double ticks)
{
	return clk->tsc_hz > 0 ? ticks * 1e9 / clk->tsc_hz : 0;
}

const char *pcb_timing_name(enum pcb_timing mode)
{
	return mode == PCB_TIMING_CALL ? "call" : "batch";
}
