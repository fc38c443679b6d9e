/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "datadir.h"

/* the directory of this binary, links resolved (/proc/self/exe): 0, or -1 */
static int exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= len - 1)
		return -1;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	slash[slash == buf] = 0;
	return 0;
}

/* whether dir is the build directory this binary was built in */
static int is_build_dir(const char *dir)
{
	char build[PATH_MAX];

	return realpath(PCB_BUILD_DIR, build) && !strcmp(dir, build);
}

/* the prefix whose bindir dir is, into buf: 0, or -1 when dir is no prefix's bindir */
static int prefix_of(const char *dir, char *buf, size_t len)
{
	size_t d = strlen(dir), b = strlen(PCB_BINDIR);

	if (PCB_BINDIR[0] == '/' || b >= d || dir[d - b - 1] != '/' ||
	    strcmp(dir + d - b, PCB_BINDIR))
		return -1;
	snprintf(buf, len, "%.*s", (int)(d - b - 1), dir);
	return 0;
}

const char *pcb_data_path(const char *rel, char *buf, size_t len)
{
	char dir[PATH_MAX], prefix[PATH_MAX];
	const char *sep = *rel ? "/" : "";
	int have_dir = exe_dir(dir, sizeof(dir)) == 0;
	const char *env = getenv("PCPBENCH_DATADIR");

	if (env && *env)
		snprintf(buf, len, "%s%s%s", env, sep, rel);
	else if (have_dir && is_build_dir(dir))
		snprintf(buf, len, "%s%s%s", PCB_SOURCE_DIR, sep, rel);
	else if (PCB_DATADIR[0] == '/')
		snprintf(buf, len, "%s%s%s", PCB_DATADIR, sep, rel);
	else
		snprintf(buf, len, "%s/%s%s%s", have_dir && prefix_of(dir, prefix, sizeof(prefix)) == 0
			 ? prefix : PCB_PREFIX, PCB_DATADIR, sep, rel);
	return buf;
}
