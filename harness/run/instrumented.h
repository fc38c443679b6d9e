/* SPDX-License-Identifier: MIT */
/*
 * The instrumented backend as a result records it: the booted kernel
 * (what its instrument says it was built as, how it was booted) and the
 * workload that ran in it (instrumented.c keeps them for the session's
 * result).
 */
#ifndef PCB_RUN_INSTRUMENTED_H
#define PCB_RUN_INSTRUMENTED_H

#include <limits.h>

#include "../machine/instrument.h"

struct pcb_instrumented_facts {
	int ran;			/* a run finished */
	struct pcb_instr_build build;
	char booted[96];		/* bare metal, or the hypervisor CPUID names */
	int emulated;			/* QEMU's TCG: the clock is emulated */
	char cgroup[PATH_MAX];		/* the memory cgroup of the last run */
	char shell[64];			/* what runs the loop */
	char loop[256];			/* the loop, as the shell runs it */
};

const struct pcb_instrumented_facts *pcb_instrumented_facts(void);

#endif
