/* SPDX-License-Identifier: MIT */
#include <cpuid.h>
#include <string.h>

#include "clear_page.h"

enum pcb_clear_page_alt pcb_clear_page_alt = PCB_CLEAR_PAGE_ORIG;

/*
 * The kernel's features: ERMS is CPUID leaf 7's EBX bit 9. REP_GOOD is
 * the kernel's own, set by init_amd() from family 0x10 and by
 * init_intel() from family 6 model 0xd when fast strings are enabled (a
 * bit of MSR_IA32_MISC_ENABLE user mode cannot read: taken as set).
 */
static __attribute__((constructor)) void pcb_clear_page_select(void)
{
	unsigned int a, b, c, d, family, model;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (a >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		if (b & (1u << 9)) {
			pcb_clear_page_alt = PCB_CLEAR_PAGE_ERMS;
			return;
		}
	}
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	if ((!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) && family >= 0x10)
		pcb_clear_page_alt = PCB_CLEAR_PAGE_REP;
	else if (!strcmp(vendor, "GenuineIntel") && (family > 6 || (family == 6 && model >= 0xd)))
		pcb_clear_page_alt = PCB_CLEAR_PAGE_REP;
}

const char *pcb_clear_page_name(void)
{
	static const char *const names[] = { "clear_page_orig", "clear_page_rep",
					     "clear_page_erms" };

	return names[pcb_clear_page_alt];
}
