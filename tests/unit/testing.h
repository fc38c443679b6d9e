/* SPDX-License-Identifier: MIT */
/* A test's assertions: each CHECK counts, and the test fails if any failed. */
#ifndef PCB_TESTING_H
#define PCB_TESTING_H

#include <stdio.h>

static int checks_run, checks_failed;

#define CHECK(cond, ...) do {						\
	checks_run++;							\
	if (!(cond)) {							\
		checks_failed++;					\
		fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__);				\
		fprintf(stderr, "\n");					\
	}								\
} while (0)

#define CHECK_NEAR(a, b, eps) CHECK(fabs((double)(a) - (double)(b)) <= (eps), \
				    "%.6f vs %.6f", (double)(a), (double)(b))

static inline int check_summary(void)
{
	printf("%d passed, %d failed\n", checks_run - checks_failed, checks_failed);
	return checks_failed ? 1 : 0;
}

#endif
