/* SPDX-License-Identifier: MIT */
/*
 * The kernel backend as a result records it: the module that ran, and
 * the kernel it ran in (kernel.c keeps them for the session's result).
 */
#ifndef PCB_RUN_KERNEL_H
#define PCB_RUN_KERNEL_H

#include <limits.h>
#include <stdint.h>

struct pcb_kernel_facts {
	int ran;			/* a run of the kernel backend finished */
	char module[PATH_MAX];		/* the pcpbench.ko loaded */
	char module_how[64];		/* given by run.module, found, built */
	char build_id[41];
	char release[128];		/* the kernel's */
	uint32_t kconfig;		/* PCB_KCONFIG_* (pcb/plan.h) */
	uint64_t tsc_khz;		/* the kernel's */
	char preemption[128];		/* the preemption model in force */
	char mitigations[512];		/* retbleed's and spectre_v2's, as sysfs says */
};

/* the session's module, for its results */
void pcb_kernel_set_module(const char *path, const char *how, const char *build_id);
const struct pcb_kernel_facts *pcb_kernel_facts(void);

#endif
