/* SPDX-License-Identifier: MIT */
/*
 * What a session asks of the process: Ctrl-C at a run boundary, the
 * output directory made ready (and what a run that died left there
 * removed), the CPUs locked against another pcpbench, the kernel
 * backend's module loaded for the session. The runs
 * themselves are session_run.c's, their result session_result.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../machine/kmod.h"
#include "../output/result.h"
#include "../run/kernel.h"
#include "../run/runner.h"
#include "exit.h"
#include "session.h"

/* SIGINT and SIGTERM caught by handler, each blocked while the other's runs */
static void catch_stops(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* the second: the process ends, as the signal would have ended it */
static void on_second_stop(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * The first ends the run in progress. The handler it leaves in place is
 * the record that a stop was asked for: session_interrupted() reads it.
 */
static void on_first_stop(int sig)
{
	pcb_run_stop();
	catch_stops(on_second_stop);
}

void session_catch_signals(void)
{
	catch_stops(on_first_stop);
}

int session_interrupted(void)
{
	struct sigaction sa;

	return sigaction(SIGINT, NULL, &sa) == 0 && sa.sa_handler == on_second_stop;
}

int session_remove_tree(const char *dir)
{
	char *const paths[] = { (char *)dir, NULL };
	FTS *fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
	FTSENT *e;
	int failed = 0;

	if (!fts)
		return -1;
	for (;;) {
		errno = 0;
		e = fts_read(fts);
		if (!e)
			break;
		/* a directory goes after what is in it (FTS_DP) */
		if (e->fts_info == FTS_D)
			continue;
		/* FTS_DNR: a directory that cannot be read keeps what is in it */
		if (e->fts_info == FTS_DNR || (remove(e->fts_accpath) && errno != ENOENT))
			failed = 1;
	}
	/* the walk itself failed */
	failed |= errno != 0;
	fts_close(fts);
	return failed ? -1 : 0;
}

void session_remove_tmp(const char *dir)
{
	if (session_remove_tree(dir) < 0)
		fprintf(stderr, "%s: could not remove %s (remove it by hand)\n", prog, dir);
}

/*
 * A result's temporary directory whose process is gone: .NAME-TS.tmp.PID,
 * a directory of this user with pcpbench's mark inside; nothing else
 */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *tmp = strstr(e->d_name, ".tmp.");
		char path[PATH_MAX];
		long pid;
		char *end;

		if (e->d_name[0] != '.' || !tmp)
			continue;
		pid = strtol(tmp + 5, &end, 10);
		if (*end || pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!pcb_tmpdir_ours(path))
			continue;
		if (session_remove_tree(path) == 0)
			fprintf(stderr, "%s: removed %s, left by a run that died\n", prog, path);
	}
	closedir(d);
}

int session_prepare_out(const char *dir, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(path, 0777) < 0 && errno != EEXIST) {
				snprintf(err, errlen, "--out %s: cannot create %s: %s", dir, path,
					 strerror(errno));
				return -1;
			}
			*p = '/';
		}
	if (mkdir(path, 0777) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "--out %s: %s", dir, strerror(errno));
		return -1;
	}
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--out %s: not a directory", dir);
		return -1;
	}
	if (access(path, W_OK | X_OK) < 0) {
		snprintf(err, errlen, "--out %s: cannot write there: %s", dir, strerror(errno));
		return -1;
	}
	remove_stale(path);
	return 0;
}

/* where the per-CPU lock files are: PCPBENCH_LOCK_DIR (the tests'), else /tmp */
static const char *lock_dir(void)
{
	const char *d = getenv("PCPBENCH_LOCK_DIR");

	return d && *d ? d : "/tmp";
}

static bool regular(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

void session_lock_cpus(struct session_once *once, hwloc_const_bitmap_t cpus, char *busy,
		       size_t len)
{
	/* CPUs this process holds already: a second flock() would be refused by the first */
	hwloc_bitmap_t held = once->held ? once->held : (once->held = hwloc_bitmap_alloc());
	unsigned int cpu;

	busy[0] = 0;
	hwloc_bitmap_foreach_begin(cpu, cpus) {
		char path[PATH_MAX];
		int fd;

		if (held && hwloc_bitmap_isset(held, cpu))
			continue;
		if (held)
			hwloc_bitmap_set(held, cpu);
		/*
		 * One place for every user, so that any two runs see each other. A
		 * symlink there is not followed and a FIFO not waited on: only a
		 * regular file is locked, and nothing is ever written to it.
		 */
		snprintf(path, sizeof(path), "%s/pcpbench-cpu%u.lock", lock_dir(), cpu);
		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
		if (fd < 0 && errno != ELOOP)
			fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 ? errno == ELOOP : !regular(fd)) {
			fprintf(stderr, "%s: %s is not a regular file (a symlink or FIFO put there?): "
				"CPU %u is not locked against another pcpbench\n", prog, path, cpu);
			if (fd >= 0)
				close(fd);
			continue;
		}
		/* held until the process ends; a CPU another pcpbench holds is named */
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK) {
			snprintf(busy + strlen(busy), len - strlen(busy), "%s%u", busy[0] ? "," : "",
				 cpu);
			close(fd);
		}
	} hwloc_bitmap_foreach_end();
}

void session_once_free(struct session_once *once)
{
	/* the lock files stay open: their locks are held until the process ends */
	hwloc_bitmap_free(once->held);
	once->held = NULL;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void session_load_module(const struct pcb_scenario *sc, struct pcb_kmod *k, const char *cmd)
{
	char err[PATH_MAX + 256];

	if (k->loaded || sc->backend != PCB_BACKEND_KERNEL)
		return;
	if (pcb_kmod_load(k, sc->value[K_RUN_MODULE], err, sizeof(err)) < 0)
		die_usage("%s: %s: run.backend = kernel: %s", cmd, sc->file, err);
	fprintf(stderr, "%s: kernel backend: %s (%s, build id %s)\n", prog, k->path, k->how,
		k->build_id[0] ? k->build_id : "none");
	pcb_kernel_set_module(k->path, k->how, k->build_id);
}
