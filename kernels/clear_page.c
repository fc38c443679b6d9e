/* SPDX-License-Identifier: MIT */
#include <cpuid.h>
#include <string.h>

#include "clear_page.h"

enum pcb_clear_page_alt pcb_clear_page_alt = PCB_CLEAR_PAGE_ORIG;

/*
 * The kernel's features, as v6.2 sets them: ERMS is CPUID leaf 7's EBX
 * bit 9. REP_GOOD is the kernel's own: init_intel() sets it for family 6
 * (early_init_intel() clears both where MSR_IA32_MISC_ENABLE has fast
 * strings off, a bit user mode cannot read: taken as on), init_amd() from
 * family 0x10 and init_amd_k8() for K8 from stepping 0x0f48, Hygon's
 * always, Centaur's for family 6 from model 0xf, Zhaoxin's from family 6.
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
	if ((!strcmp(vendor, "GenuineIntel") && family == 6) ||
	    (!strcmp(vendor, "AuthenticAMD") &&
	     (family >= 0x10 || (family == 0xf && ((a >= 0x0f48 && a < 0x0f50) || a >= 0x0f58)))) ||
	    !strcmp(vendor, "HygonGenuine") ||
	    (!strcmp(vendor, "CentaurHauls") && family == 6 && model >= 0xf) ||
	    (!strcmp(vendor, "  Shanghai  ") && family >= 6))
		pcb_clear_page_alt = PCB_CLEAR_PAGE_REP;
}

const char *pcb_clear_page_name(void)
{
	static const char *const names[] = { "clear_page_orig", "clear_page_rep",
					     "clear_page_erms" };

	return names[pcb_clear_page_alt];
}
