/* SPDX-License-Identifier: MIT */
/*
 * clear_page() (kernels/clear_page.h): each of the kernel's three
 * alternatives zeroes exactly the 4 KiB it is given, and the one chosen
 * at start-up is the one CPUID says the kernel would patch in.
 */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>

#include "kernels/clear_page.h"
#include "testing.h"

#define GUARD 64

static unsigned char buf[GUARD + PCB_CLEAR_PAGE_SIZE + GUARD] __attribute__((aligned(4096)));

static void check_alt(enum pcb_clear_page_alt alt)
{
	enum pcb_clear_page_alt chosen = pcb_clear_page_alt;
	size_t dirty = 0, guards = 0;

	memset(buf, 0xa5, sizeof(buf));
	pcb_clear_page_alt = alt;
	clear_page(buf + GUARD);
	pcb_clear_page_alt = chosen;
	for (size_t i = 0; i < PCB_CLEAR_PAGE_SIZE; i++)
		dirty += buf[GUARD + i] != 0;
	for (size_t i = 0; i < GUARD; i++)
		guards += (buf[i] != 0xa5) + (buf[GUARD + PCB_CLEAR_PAGE_SIZE + i] != 0xa5);
	CHECK(dirty == 0, "alternative %d left %zu bytes of the page unzeroed", alt, dirty);
	CHECK(guards == 0, "alternative %d wrote %zu bytes outside the page", alt, guards);
}

int main(void)
{
	unsigned int a = 0, b = 0, c = 0, d = 0;
	int erms = 0;

	if (__get_cpuid_max(0, NULL) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		erms = !!(b & (1u << 9));
	}

	check_alt(PCB_CLEAR_PAGE_ORIG);
	check_alt(PCB_CLEAR_PAGE_REP);
	check_alt(PCB_CLEAR_PAGE_ERMS);
	/* ERMS takes precedence, as the later of alternative_call_2()'s two features */
	CHECK(erms == (pcb_clear_page_alt == PCB_CLEAR_PAGE_ERMS),
	      "CPUID ERMS %d, but the alternative chosen is %s", erms, pcb_clear_page_name());
	CHECK(!strncmp(pcb_clear_page_name(), "clear_page_", 11), "name %s",
	      pcb_clear_page_name());
	return check_summary();
}
