/* SPDX-License-Identifier: MIT */
/*
 * The kernel backend's module on this machine: the kernel it runs,
 * whether the module may be loaded here (each refusal a sentence, exit
 * 2, nothing loaded), the pcpbench.ko that fits it (given, found, or
 * built with its headers), loaded and unloaded. Files are read under
 * PCPBENCH_SYSROOT, as state.c reads them.
 */
#ifndef PCB_MACHINE_KMOD_H
#define PCB_MACHINE_KMOD_H

#include <limits.h>
#include <stddef.h>

/*
 * The oldest kernel release the module is written for, which its build
 * refuses below too (kmod/seam/pcb/base.h): a newer one is taken where the
 * module builds against its tree, the build's feature tests and layout
 * checks being the gate, not a list (docs/kernel.md)
 */
#define PCB_KMOD_OLDEST_MAJOR 6
#define PCB_KMOD_OLDEST_MINOR 1

struct pcb_kmod {
	char release[128];		/* the running kernel's (uname -r) */
	char path[PATH_MAX];		/* the module loaded */
	const char *how;		/* given by run.module, found, or built */
	char build_id[41];		/* its GNU build id, hex */
	char name[64];			/* the name the kernel registered it by */
	int loaded;			/* by this process */
	unsigned char *image;		/* its content while it is checked and loaded */
	size_t image_size;
};

/* release one the module supports; -1 with why otherwise */
int pcb_kmod_supported(const char *release, char *why, size_t len);
/*
 * Whether the module may be loaded here, then the one to load (module:
 * run.module, a path, or "auto"), then loaded; 0, or -1 with err, a
 * refusal or a failure to load, nothing loaded
 */
int pcb_kmod_load(struct pcb_kmod *k, const char *module, char *err, size_t errlen);
/* the module unloaded, where this process loaded it */
void pcb_kmod_unload(struct pcb_kmod *k);
/*
 * The preemption model in force (PREEMPT_DYNAMIC's, from debugfs or the
 * command line, else the build's) and the mitigations that move a call's
 * cost (sysfs, and the build's return thunks), from the module's
 * PCB_KCONFIG_* bits of the kernel it was built for
 */
void pcb_kmod_preemption(unsigned int kconfig, char *buf, size_t len);
void pcb_kmod_mitigations(unsigned int kconfig, char *buf, size_t len);
/* the GNU build id of an ELF file, hex, into id[41]; 0 or -1 */
int pcb_kmod_build_id(const char *path, char *id);
/* the kernel a module was built for (its vermagic's first word) into rel; 0 or -1 */
int pcb_kmod_vermagic(const char *path, char *rel, size_t len);
/* a module's modinfo value of key ("name", "pcpbench_plan") into val; 0 or -1 */
int pcb_kmod_modinfo(const char *path, const char *key, char *val, size_t len);

#endif
