/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "aslr.h"

static char status[192];

/* /proc/sys/kernel/randomize_va_space of this machine, -1 if unknown */
static int randomize_va_space(void)
{
	FILE *f = fopen("/proc/sys/kernel/randomize_va_space", "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* the image started by the re-exec: whether ADDR_NO_RANDOMIZE held */
static void reexecuted(int pers)
{
	unsetenv(PCB_ASLR_ENV);
	if (pers != -1 && (pers & ADDR_NO_RANDOMIZE))
		snprintf(status, sizeof(status), "disabled by re-exec");
	else
		snprintf(status, sizeof(status), "kept: ADDR_NO_RANDOMIZE did not hold across "
			 "the re-exec");
}

void pcb_aslr_reexec(char **argv, int keep)
{
	int pers = personality(0xffffffff), e;

	if (getenv(PCB_ASLR_ENV)) {
		reexecuted(pers);
		return;
	}
	if (keep) {
		snprintf(status, sizeof(status), "kept (--keep-aslr)");
		return;
	}
	if (pers == -1) {
		snprintf(status, sizeof(status), "kept: personality: %s", strerror(errno));
		return;
	}
	if (pers & ADDR_NO_RANDOMIZE) {
		snprintf(status, sizeof(status), "disabled (ADDR_NO_RANDOMIZE inherited, as "
			 "setarch -R sets it)");
		return;
	}
	if (randomize_va_space() == 0) {
		snprintf(status, sizeof(status), "off system-wide (randomize_va_space 0)");
		return;
	}
	if (personality((unsigned long)pers | ADDR_NO_RANDOMIZE) == -1) {
		snprintf(status, sizeof(status), "kept: personality(ADDR_NO_RANDOMIZE): %s",
			 strerror(errno));
		return;
	}
	setenv(PCB_ASLR_ENV, "1", 1);
	execv("/proc/self/exe", argv);
	e = errno;
	personality((unsigned long)pers);
	unsetenv(PCB_ASLR_ENV);
	snprintf(status, sizeof(status), "kept: execv /proc/self/exe: %s", strerror(e));
}

const char *pcb_aslr_status(void)
{
	return status;
}

int pcb_aslr_kept(const char *s)
{
	return !strncmp(s, "kept", 4);
}

int pcb_aslr_probe(void)
{
	int pers = personality(0xffffffff);

	if (pers == -1)
		return -errno;
	if (pers & ADDR_NO_RANDOMIZE)
		return 0;
	if (personality((unsigned long)pers | ADDR_NO_RANDOMIZE) == -1)
		return -errno;
	personality((unsigned long)pers);
	return 0;
}
