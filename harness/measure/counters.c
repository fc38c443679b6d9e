/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "counters.h"

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status;

static void pfm_init(void)
{
	pfm_status = pfm_initialize();
}

static int encode(const char *name, int kernel, struct pcb_event_spec *ev, char *err, size_t errlen)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int rc;

	pthread_once(&pfm_once, pfm_init);
	if (pfm_status != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 cannot initialise: %s", pfm_strerror(pfm_status));
		return -1;
	}
	memset(ev, 0, sizeof(*ev));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &ev->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(name, kernel ? PFM_PLM0 | PFM_PLM3 : PFM_PLM3,
				       PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(err, errlen, "unknown event '%s' (libpfm4: %s)", name, pfm_strerror(rc));
		free(fstr);
		return -1;
	}
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	snprintf(ev->fstr, sizeof(ev->fstr), "%s", fstr ? fstr : name);
	free(fstr);
	/* a modifier that makes it a sampling event changes what is measured */
	if (ev->attr.sample_period || ev->attr.freq) {
		snprintf(err, errlen, "'%s' would sample (period or freq): pcpbench counts events, "
			 "drop the modifier", name);
		return -1;
	}
	ev->attr.size = sizeof(ev->attr);
	/* a context switch or a page fault is a kernel event: count software events in both modes */
	if (ev->attr.type == PERF_TYPE_SOFTWARE)
		ev->attr.exclude_kernel = 0;
	ev->attr.exclude_hv = 1;
	ev->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return 0;
}

int pcb_counters_parse(const char *list, int kernel, struct pcb_counters_cfg *cfg,
		       char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int rc = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->kernel = kernel;
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (cfg->n == PCB_MAX_EVENTS) {
			snprintf(err, errlen, "more than %d events", PCB_MAX_EVENTS);
			rc = -1;
			break;
		}
		for (int i = 0; i < cfg->n; i++)
			if (!strcmp(cfg->ev[i].name, tok)) {
				snprintf(err, errlen, "event '%s' listed twice", tok);
				rc = -1;
			}
		if (rc || encode(tok, kernel, &cfg->ev[cfg->n], err, errlen) < 0) {
			rc = -1;
			break;
		}
		cfg->n++;
	}
	free(copy);
	return rc;
}

/* whether the last open_event() joined the group (set by open_event, read by its caller) */
static __thread int open_joined;

static int perf_open(struct perf_event_attr *attr, int group_fd)
{
	long fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* open one event, in the group if it will go, else alone; kernel mode only if permitted */
static int open_event(struct pcb_counters *c, const struct pcb_event_spec *spec, int group_fd)
{
	struct perf_event_attr attr = spec->attr;
	int fd;

	attr.disabled = group_fd < 0;
	fd = perf_open(&attr, group_fd);
	open_joined = fd >= 0 && group_fd >= 0;
	if (fd < 0 && group_fd >= 0 && fd != -EACCES) {
		attr.disabled = 1;
		fd = perf_open(&attr, -1);
	}
	/* perf_event_paranoid 2 and more: user mode only, for software events too */
	if ((fd == -EACCES || fd == -EPERM) && !attr.exclude_kernel) {
		attr.exclude_kernel = 1;
		attr.disabled = group_fd < 0;
		fd = perf_open(&attr, group_fd);
		open_joined = fd >= 0 && group_fd >= 0;
		if (fd < 0 && group_fd >= 0) {
			attr.disabled = 1;
			fd = perf_open(&attr, -1);
		}
		if (fd >= 0)
			c->kernel_dropped = 1;
	}
	return fd;
}

void pcb_counters_open(struct pcb_counters *c, const struct pcb_counters_cfg *cfg)
{
	int group = -1;
	long page = sysconf(_SC_PAGESIZE);

	memset(c, 0, sizeof(*c));
	c->n = cfg->n;
	c->rdpmc = cfg->n > 0;
	for (int i = 0; i < cfg->n; i++) {
		/*
		 * Hardware events share one group, so they are scheduled together;
		 * software events stand alone (in a group led by task-clock their
		 * running time read half their enabled time on 6.18).
		 */
		int sw = cfg->ev[i].attr.type == PERF_TYPE_SOFTWARE;
		int fd = open_event(c, &cfg->ev[i], sw ? -1 : group);

		c->fd[i] = fd;
		c->status[i] = fd < 0 ? fd : 0;
		c->member[i] = fd >= 0 && group >= 0 && !sw && open_joined;
		if (fd < 0) {
			c->rdpmc = 0;
			continue;
		}
		if (group < 0 && !sw)
			group = fd;
		c->mm[i] = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
		if (c->mm[i] == MAP_FAILED)
			c->mm[i] = NULL;
		if (!c->mm[i] || !c->mm[i]->cap_usr_rdpmc)
			c->rdpmc = 0;
	}
}

void pcb_counters_close(struct pcb_counters *c)
{
	long page = sysconf(_SC_PAGESIZE);

	for (int i = 0; i < c->n; i++) {
		if (c->mm[i])
			munmap(c->mm[i], (size_t)page);
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	}
	memset(c, 0, sizeof(*c));
}

static void read_one(int fd, struct pcb_counter_value *v)
{
	uint64_t buf[3];

	if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		v->status = -errno ? -errno : -EIO;
		return;
	}
	v->value = buf[0];
	v->enabled_ns = buf[1];
	v->running_ns = buf[2];
}

/* a group is switched through its leader; members never on their own */
static void switch_all(struct pcb_counters *c, unsigned long req)
{
	for (int i = 0; i < c->n; i++) {
		if (c->fd[i] < 0 || c->member[i])
			continue;
		ioctl(c->fd[i], req, PERF_IOC_FLAG_GROUP);
	}
}

void pcb_counters_start(struct pcb_counters *c)
{
	switch_all(c, PERF_EVENT_IOC_ENABLE);
	for (int i = 0; i < c->n; i++) {
		c->start[i].status = c->status[i];
		if (c->fd[i] >= 0)
			read_one(c->fd[i], &c->start[i]);
	}
}

void pcb_counters_stop(struct pcb_counters *c, struct pcb_counter_value *out)
{
	switch_all(c, PERF_EVENT_IOC_DISABLE);
	for (int i = 0; i < c->n; i++) {
		struct pcb_counter_value end = { .status = c->status[i] };

		if (c->fd[i] >= 0)
			read_one(c->fd[i], &end);
		out[i].status = end.status;
		out[i].value = end.value - c->start[i].value;
		out[i].enabled_ns = end.enabled_ns - c->start[i].enabled_ns;
		out[i].running_ns = end.running_ns - c->start[i].running_ns;
	}
}

static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return ((uint64_t)hi << 32) | lo;
}

/* the self-monitoring read of include/uapi/linux/perf_event.h; -1 if not on a PMU now */
static int mmap_read(const struct perf_event_mmap_page *pc, uint64_t *count)
{
	uint32_t seq, idx;
	uint64_t v;

	do {
		seq = pc->lock;
		__asm__ __volatile__("" ::: "memory");
		idx = pc->index;
		v = (uint64_t)pc->offset;
		if (!pc->cap_usr_rdpmc || !idx)	/* cap_user_rdpmc in the kernel's header */
			return -1;
		{
			uint64_t pmc = rdpmc(idx - 1);
			unsigned int width = pc->pmc_width;

			/* sign-extend from the counter's width, shifting unsigned */
			if (width > 0 && width < 64)
				pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
			v += pmc;
		}
		__asm__ __volatile__("" ::: "memory");
	} while (pc->lock != seq);
	*count = v;
	return 0;
}

void pcb_counters_snap(const struct pcb_counters *c, uint64_t *v)
{
	for (int i = 0; i < c->n; i++) {
		struct pcb_counter_value r = { 0 };

		if (c->fd[i] < 0) {
			v[i] = 0;
			continue;
		}
		if (c->rdpmc && c->mm[i] && mmap_read(c->mm[i], &v[i]) == 0)
			continue;
		read_one(c->fd[i], &r);
		v[i] = r.value;
	}
}

const char *pcb_counter_status_text(const struct pcb_counter_value *v)
{
	if (v->status)
		return "<not supported>";
	if (!v->running_ns)
		return "<not counted>";
	return NULL;
}

int pcb_counters_probe(const char *name)
{
	struct pcb_event_spec ev;
	char err[256];
	int fd;

	if (encode(name, 0, &ev, err, sizeof(err)) < 0)
		return -ENOENT;
	ev.attr.disabled = 1;
	fd = perf_open(&ev.attr, -1);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int pcb_perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}
