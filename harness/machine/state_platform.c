/* SPDX-License-Identifier: MIT */
/*
 * What the kernel pcpbench runs on is: the machine (native), a VM
 * (CPUID's hypervisor bit), or User-mode Linux (uml): the kernel a host
 * process, its CPUs host threads, as arch/um's show_cpuinfo() says in
 * /proc/cpuinfo ("vendor_id : User Mode Linux", "host : " the host's
 * uname). The host CPUs its threads run on and how they are pinned cannot
 * be seen from inside; scripts/vm.sh, which starts it, puts them on the
 * kernel's command line (pcb.host_cpus=, pcb.pinning=).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "state_read.h"

/* what follows the next c in s, NULL where none does */
static const char *after(const char *s, int c)
{
	const char *e = strchr(s, c);

	return e && e[1] ? e + 1 : NULL;
}

/* the value of cpuinfo's "key<tabs>: value" line, one line, into buf; 0 where found */
static int cpuinfo_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key);

	for (const char *l = text; l; l = after(l, '\n')) {
		const char *p = l + n, *e;

		if (strncmp(l, key, n) || (*p != '\t' && *p != ' ' && *p != ':'))
			continue;
		while (*p == '\t' || *p == ' ')
			p++;
		if (*p++ != ':')
			continue;
		while (*p == ' ')
			p++;
		e = strchr(p, '\n');
		snprintf(buf, len, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
		return 0;
	}
	return -1;
}

/* the command line's word starting with param, its value kept where it is made of allowed */
static void cmdline_value(const char *cmdline, const char *param, const char *allowed,
			  char *buf, size_t len)
{
	size_t n = strlen(param);

	for (const char *w = cmdline; w; w = after(w, ' ')) {
		size_t k;

		if (strncmp(w, param, n))
			continue;
		w += n;
		k = strcspn(w, " \t\n");
		if (k && k < len && strspn(w, allowed) >= k)
			snprintf(buf, len, "%.*s", (int)k, w);
		return;
	}
}

void pcb_platform_read(const char *root, struct pcb_platform *p)
{
	char *info = pcb_state_file_all(root, "proc/cpuinfo"), *cmdline, vendor[64] = "";
	char value[192];

	memset(p, 0, sizeof(*p));
	if (info && !cpuinfo_value(info, "vendor_id", vendor, sizeof(vendor)) &&
	    !strcmp(vendor, "User Mode Linux")) {
		snprintf(p->name, sizeof(p->name), "uml");
		if (cpuinfo_value(info, "host", value, sizeof(value)) == 0)
			pcb_one_line(p->host, sizeof(p->host), value);
	} else {
		snprintf(p->name, sizeof(p->name), "%s", pcb_state_hypervisor(vendor, sizeof(vendor)) ?
			 "vm" : "native");
	}
	free(info);
	if (strcmp(p->name, "uml"))
		return;
	cmdline = pcb_state_file_all(root, "proc/cmdline");
	if (cmdline) {
		cmdline_value(cmdline, "pcb.host_cpus=", "0123456789,-", p->host_cpus,
			      sizeof(p->host_cpus));
		cmdline_value(cmdline, "pcb.pinning=", "abcdefghijklmnopqrstuvwxyz-",
			      p->pinning, sizeof(p->pinning));
		free(cmdline);
	}
}

void pcb_state_read_platform(struct pcb_state *st)
{
	const struct pcb_platform *p = &st->platform;
	char value[192];

	pcb_platform_read(st->root, &st->platform);
	if (strcmp(p->name, "uml"))
		return;
	snprintf(value, sizeof(value), "uml, host CPUs %s, pinning %s",
		 *p->host_cpus ? p->host_cpus : "unknown", *p->pinning ? p->pinning : "unknown");
	pcb_state_add(st, "platform", -1, PCB_STATE_NOTE, value,
		      *p->host ? p->host : "proc/cpuinfo: User Mode Linux, its host unnamed");
}
