/* SPDX-License-Identifier: MIT */
/*
 * Address randomization of the measuring process. Where the binary, its
 * stacks and its heap are mapped moves small figures from one invocation
 * to the next, so run, reproduce and calibrate re-execute themselves once
 * without it, as Google Benchmark's MaybeReenterWithoutASLR() does:
 * personality(ADDR_NO_RANDOMIZE), then execv("/proc/self/exe"), with
 * PCPBENCH_ASLR_REEXEC in the environment so that the new image does not
 * do it again; it carries the process's name, which the new image takes
 * back (execve() names it "exe"). Only where /proc/self/exe is this
 * program: started through the dynamic loader, it is the loader. Any
 * failure leaves randomization on, with a status saying why; the run goes
 * on.
 */
#ifndef PCB_ASLR_H
#define PCB_ASLR_H

#include <stddef.h>

#define PCB_ASLR_ENV "PCPBENCH_ASLR_REEXEC"

/* main()'s whole argv, copied before any getopt_long() permutes it */
void pcb_aslr_command(int argc, char **argv);
/*
 * once a measuring command's options are parsed (keep: --keep-aslr, as
 * its parser read it); returns only if no exec happened
 */
void pcb_aslr_reexec(int keep);
/*
 * What became of this process's randomization: "disabled by re-exec",
 * "disabled (inherited ...)", "off system-wide ...", "kept (--keep-aslr)"
 * or "kept: <what failed>"; "" where pcb_aslr_reexec() did not run.
 */
const char *pcb_aslr_status(void);
/* whether a status leaves mappings randomized */
int pcb_aslr_kept(const char *status);
/* whether personality(ADDR_NO_RANDOMIZE) is allowed here, tried and undone: 0, or -errno */
int pcb_aslr_probe(void);

#endif
