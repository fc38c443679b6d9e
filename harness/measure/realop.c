/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "realop.h"
#include "stats.h"
#include "tsc.h"

#define PAGE_BYTES 4096

const struct pcb_realop_desc pcb_realop_desc[PCB_REALOPS] = {
	[PCB_REALOP_MMAP] = { "mmap", "an mmap() + munmap() pair of one anonymous page",
		"seed 000, 2.4: page_mmap(); page_munmap(), no write", 50000 },
	[PCB_REALOP_MMAP_WRITE] = { "mmap_write", "the pair with page[3] = i between them",
		"seed 000, 2.4: compiled with -DMY_WRITE, the page faults", 50000 },
	[PCB_REALOP_FAULT] = { "fault", "a page fault on anonymous memory and its page's munmap",
		"mmtests' pft (seeds 003, 004): a region touched once a 4 KiB page, unmapped",
		4 * PCB_REALOP_FAULT_PAGES },
	[PCB_REALOP_TCP_RR] = { "tcp_rr", "a 1-byte request and its 1-byte response",
		"netperf -t TCP_RR over loopback", 50000 },
	[PCB_REALOP_TCP_STREAM] = { "tcp_stream", "a 10 KiB sendfile() over loopback, read whole",
		"seed 002: netperf -6 -H ::1 -t TCP_SENDFILE -- -m 10K", 50000 },
};

int pcb_realop_find(const char *name)
{
	for (int k = 0; k < PCB_REALOPS; k++)
		if (!strcmp(pcb_realop_desc[k].name, name))
			return k;
	return -1;
}

const char *pcb_realop_names(void)
{
	static char names[128];

	if (!names[0])
		for (int k = 0; k < PCB_REALOPS; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 k ? ", " : "", pcb_realop_desc[k].name);
	return names;
}

#define FAIL(what) do {							\
	snprintf(err, errlen, "%s: %s", (what), strerror(errno));	\
	return -1;							\
} while (0)

static int pin(int cpu, char *err, size_t errlen)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		FAIL("sched_setaffinity");
	return 0;
}

/* seed 000's loop: page_mmap(), page[3] = i with MY_WRITE, page_munmap() */
static int run_mmap(uint64_t ops, int write, uint64_t *ticks, char *err, size_t errlen)
{
	uint64_t t0 = pcb_tsc_start();

	for (uint64_t i = 0; i < ops; i++) {
		int *page = mmap(NULL, PAGE_BYTES, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (page == MAP_FAILED)
			FAIL("mmap");
		if (write)
			((volatile int *)page)[3] = (int)i;
		if (munmap(page, PAGE_BYTES))
			FAIL("munmap");
	}
	*ticks = pcb_tsc_end() - t0;
	return 0;
}

/*
 * pft's thread: a region mapped, each 4 KiB page written once, the region
 * unmapped. Transparent huge pages would make one fault of 512 pages: the
 * region asks for base pages, as pft's order-0 faults are.
 */
static int run_fault(uint64_t pages, uint64_t *ticks, char *err, size_t errlen)
{
	const size_t len = (size_t)PCB_REALOP_FAULT_PAGES * PAGE_BYTES;
	uint64_t t0 = pcb_tsc_start();

	for (uint64_t done = 0; done < pages; done += PCB_REALOP_FAULT_PAGES) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p == MAP_FAILED)
			FAIL("mmap");
		if (madvise(p, len, MADV_NOHUGEPAGE) && errno != EINVAL) {
			int e = errno;

			munmap(p, len);
			errno = e;
			FAIL("madvise");
		}
		for (size_t off = 0; off < len; off += PAGE_BYTES)
			((volatile char *)p)[off] = 1;
		if (munmap(p, len))
			FAIL("munmap");
	}
	*ticks = pcb_tsc_end() - t0;
	return 0;
}

/* ---- loopback TCP, a server thread on its own CPU ---- */

struct tcp_server {
	int listen_fd, fd;
	int cpu;
	int stream;			/* read what comes; else echo each byte */
	pthread_t thread;
	int err;
};

static void *tcp_server_main(void *arg)
{
	struct tcp_server *s = arg;
	char buf[64 * 1024];
	char e[64];

	if (pin(s->cpu, e, sizeof(e)) < 0) {
		s->err = errno;
		return NULL;
	}
	s->fd = accept(s->listen_fd, NULL, NULL);
	if (s->fd < 0) {
		s->err = errno;
		return NULL;
	}
	for (;;) {
		ssize_t n = recv(s->fd, buf, s->stream ? sizeof(buf) : 1, 0);

		if (n <= 0)
			break;
		if (!s->stream && send(s->fd, buf, 1, 0) != 1)
			break;
	}
	close(s->fd);
	return NULL;
}

static int tcp_connect(struct tcp_server *s, int *fd, char *err, size_t errlen)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);

	s->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->listen_fd < 0)
		FAIL("socket");
	if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(s->listen_fd, (struct sockaddr *)&a, &len) || listen(s->listen_fd, 1)) {
		int e = errno;

		close(s->listen_fd);
		errno = e;
		FAIL("bind/listen on 127.0.0.1");
	}
	if ((errno = pthread_create(&s->thread, NULL, tcp_server_main, s))) {
		close(s->listen_fd);
		FAIL("pthread_create");
	}
	*fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*fd < 0 || connect(*fd, (struct sockaddr *)&a, sizeof(a))) {
		int e = errno;

		if (*fd >= 0)
			close(*fd);
		shutdown(s->listen_fd, SHUT_RDWR);
		pthread_join(s->thread, NULL);
		close(s->listen_fd);
		errno = e;
		FAIL("connect to 127.0.0.1");
	}
	return 0;
}

static void tcp_close(struct tcp_server *s, int fd)
{
	shutdown(fd, SHUT_WR);
	close(fd);
	pthread_join(s->thread, NULL);
	close(s->listen_fd);
}

static int tcp_rr(int fd, uint64_t ops, char *err, size_t errlen)
{
	char c = 'r';

	for (uint64_t i = 0; i < ops; i++) {
		if (send(fd, &c, 1, 0) != 1)
			FAIL("send");
		if (recv(fd, &c, 1, MSG_WAITALL) != 1)
			FAIL("recv");
	}
	return 0;
}

/* one 10 KiB message: sendfile() until the whole of it left */
static int tcp_stream(int fd, int file, uint64_t ops, char *err, size_t errlen)
{
	for (uint64_t i = 0; i < ops; i++) {
		off_t off = 0;

		while (off < PCB_REALOP_STREAM_BYTES) {
			ssize_t n = sendfile(fd, file, &off, PCB_REALOP_STREAM_BYTES - (size_t)off);

			if (n <= 0)
				FAIL("sendfile");
		}
	}
	return 0;
}

static int stream_file(char *err, size_t errlen)
{
	static const char chunk[PCB_REALOP_STREAM_BYTES];
	int fd = memfd_create("pcpbench-sendfile", MFD_CLOEXEC);

	if (fd < 0)
		FAIL("memfd_create");
	if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
		close(fd);
		FAIL("write");
	}
	return fd;
}

static int run_tcp(const struct pcb_realop_req *req, uint64_t ops, struct pcb_realop_result *res,
		   char *err, size_t errlen)
{
	int stream = req->kind == PCB_REALOP_TCP_STREAM;
	struct tcp_server s = { .cpu = req->peer_cpu >= 0 ? req->peer_cpu : req->cpu,
				.stream = stream };
	int fd, file = -1, rc = 0;

	if (stream && (file = stream_file(err, errlen)) < 0)
		return -1;
	if (tcp_connect(&s, &fd, err, errlen) < 0) {
		if (file >= 0)
			close(file);
		return -1;
	}
	/* warm: the connection's buffers and both CPUs' caches */
	rc = stream ? tcp_stream(fd, file, ops / 10 + 1, err, errlen)
		    : tcp_rr(fd, ops / 10 + 1, err, errlen);
	for (int r = 0; !rc && r < req->runs; r++) {
		uint64_t t0 = pcb_tsc_start();

		rc = stream ? tcp_stream(fd, file, ops, err, errlen) : tcp_rr(fd, ops, err, errlen);
		res->run[r] = (double)(pcb_tsc_end() - t0) / (double)ops;
	}
	tcp_close(&s, fd);
	if (file >= 0)
		close(file);
	if (!rc && s.err) {
		errno = s.err;
		FAIL("the loopback server");
	}
	return rc;
}

static int run_local(const struct pcb_realop_req *req, uint64_t ops,
		     struct pcb_realop_result *res, char *err, size_t errlen)
{
	/* the first run warms the page tables, the slabs and the per-CPU lists */
	for (int r = -1; r < req->runs; r++) {
		uint64_t ticks = 0;
		int rc;

		if (req->kind == PCB_REALOP_FAULT)
			rc = run_fault(r < 0 ? PCB_REALOP_FAULT_PAGES : ops, &ticks, err, errlen);
		else
			rc = run_mmap(r < 0 ? ops / 10 + 1 : ops, req->kind == PCB_REALOP_MMAP_WRITE,
				      &ticks, err, errlen);
		if (rc < 0)
			return -1;
		if (r >= 0)
			res->run[r] = (double)ticks / (double)ops;
	}
	return 0;
}

int pcb_realop_measure(const struct pcb_realop_req *req, struct pcb_realop_result *res,
		       char *err, size_t errlen)
{
	cpu_set_t saved;
	uint64_t ops;
	int rc;

	memset(res, 0, sizeof(*res));
	if ((unsigned int)req->kind >= PCB_REALOPS || req->runs < 1 ||
	    req->runs > PCB_REALOP_MAX_RUNS) {
		snprintf(err, errlen, "real operation %d, %d runs: out of range", (int)req->kind,
			 req->runs);
		return -1;
	}
	ops = req->ops ? req->ops : pcb_realop_desc[req->kind].default_ops;
	if (req->kind == PCB_REALOP_FAULT)	/* whole regions */
		ops = (ops + PCB_REALOP_FAULT_PAGES - 1) / PCB_REALOP_FAULT_PAGES *
		      PCB_REALOP_FAULT_PAGES;
	res->kind = req->kind;
	res->runs = req->runs;
	res->ops = ops;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		FAIL("sched_getaffinity");
	if (pin(req->cpu, err, errlen) < 0)
		return -1;
	if (req->kind == PCB_REALOP_TCP_RR || req->kind == PCB_REALOP_TCP_STREAM)
		rc = run_tcp(req, ops, res, err, errlen);
	else
		rc = run_local(req, ops, res, err, errlen);
	sched_setaffinity(0, sizeof(saved), &saved);
	if (rc < 0)
		return -1;
	res->mean = pcb_mean(res->run, res->runs);
	res->stddev = res->runs > 1 ? pcb_stddev(res->run, res->runs) : 0;
	res->min = res->run[0];
	for (int r = 1; r < res->runs; r++)
		res->min = fmin(res->min, res->run[r]);
	return 0;
}
