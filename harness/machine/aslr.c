/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "aslr.h"

static char status[192];
/* main()'s argv in its order (getopt_long() permutes the caller's): what the re-exec runs */
static char **command;

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

/*
 * the image started by the re-exec: the name the process had (the kernel
 * names it after the file execve() was given, "exe"), and whether
 * ADDR_NO_RANDOMIZE held
 */
static void reexecuted(int pers)
{
	const char *name = getenv(PCB_ASLR_ENV);

	if (*name)
		prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
	unsetenv(PCB_ASLR_ENV);
	if (pers != -1 && (pers & ADDR_NO_RANDOMIZE))
		snprintf(status, sizeof(status), "disabled by re-exec");
	else
		snprintf(status, sizeof(status), "kept: ADDR_NO_RANDOMIZE did not hold across "
			 "the re-exec");
}

void pcb_aslr_command(int argc, char **argv)
{
	command = calloc((size_t)argc + 1, sizeof(*command));
	if (command)
		memcpy(command, argv, (size_t)argc * sizeof(*argv));
}

/* the main program's program headers, which dl_iterate_phdr() visits first */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct dl_phdr_info *self = data;

	(void)size;
	self->dlpi_phdr = info->dlpi_phdr;
	self->dlpi_phnum = info->dlpi_phnum;
	return 1;
}

/*
 * whether fd (/proc/self/exe) holds the program headers this process
 * runs: not so where a loader was exec'd ("ld-linux-x86-64.so.2 pcpbench
 * run"), /proc/self/exe then being the loader; 0 or -errno
 */
static int same_program(int fd)
{
	struct dl_phdr_info self = { 0 };
	ElfW(Ehdr) eh;
	size_t len;
	void *ph;
	int same;

	dl_iterate_phdr(first_object, &self);
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
		return -EIO;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh.e_phnum != self.dlpi_phnum || !self.dlpi_phdr)
		return 0;
	len = (size_t)eh.e_phnum * sizeof(ElfW(Phdr));
	ph = malloc(len);
	if (!ph)
		return -ENOMEM;
	same = pread(fd, ph, len, (off_t)eh.e_phoff) == (ssize_t)len &&
	       !memcmp(ph, self.dlpi_phdr, len);
	free(ph);
	return same;
}

/* whether /proc/self/exe is this program, else the status saying why not */
static int exe_is_self(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		snprintf(status, sizeof(status), "kept: /proc/self/exe: %s", strerror(errno));
		return 0;
	}
	rc = same_program(fd);
	close(fd);
	if (rc < 0)
		snprintf(status, sizeof(status), "kept: /proc/self/exe: %s", strerror(-rc));
	else if (!rc)
		snprintf(status, sizeof(status), "kept: /proc/self/exe is not this program "
			 "(a loader started it)");
	return rc > 0;
}

/* ADDR_NO_RANDOMIZE set on pers, then the exec; returns only where it failed */
static void reexec(int pers)
{
	char name[17] = "";
	int e;

	if (personality((unsigned long)pers | ADDR_NO_RANDOMIZE) == -1) {
		snprintf(status, sizeof(status), "kept: personality(ADDR_NO_RANDOMIZE): %s",
			 strerror(errno));
		return;
	}
	prctl(PR_GET_NAME, (unsigned long)name, 0, 0, 0);
	setenv(PCB_ASLR_ENV, name, 1);
	execv("/proc/self/exe", command);
	e = errno;
	personality((unsigned long)pers);
	unsetenv(PCB_ASLR_ENV);
	snprintf(status, sizeof(status), "kept: execv /proc/self/exe: %s", strerror(e));
}

void pcb_aslr_reexec(int keep)
{
	int pers = personality(0xffffffff);

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
	if (!command) {
		snprintf(status, sizeof(status), "kept: no command line to re-execute");
		return;
	}
	if (exe_is_self())
		reexec(pers);
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
