/* SPDX-License-Identifier: MIT */
/*
 * memcg_tree_create() gives back everything it took when an allocation
 * fails: each of its allocations is made to fail in turn (calloc() and
 * aligned_alloc() wrapped at link time, -Wl,--wrap), and after each
 * failure no block it allocated is left; a tree that was made is given
 * back whole by memcg_tree_destroy().
 */
#include <errno.h>
#include <stdlib.h>

#include "testing.h"
#include "../../kernels/memcg/memcontrol.h"

#define MAX_LIVE 256

void *__real_calloc(size_t n, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void __real_free(void *p);

static void *live[MAX_LIVE];
static int nr_live, nr_calls, fail_at;

static void *track(void *p)
{
	if (p && nr_live < MAX_LIVE)
		live[nr_live++] = p;
	return p;
}

/* the fail_at-th allocation fails (0: none) */
static int failing(void)
{
	return ++nr_calls == fail_at;
}

void *__wrap_calloc(size_t n, size_t size)
{
	return failing() ? NULL : track(__real_calloc(n, size));
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
	return failing() ? NULL : track(__real_aligned_alloc(align, size));
}

void __wrap_free(void *p)
{
	for (int i = 0; p && i < nr_live; i++)
		if (live[i] == p) {
			live[i] = live[--nr_live];
			break;
		}
	__real_free(p);
}

int main(void)
{
	struct memcg_tree tree;
	int allocations;

	/* how many allocations a tree of three levels and three leaves takes */
	fail_at = 0;
	nr_calls = 0;
	CHECK(memcg_tree_create(&tree, 3, 3) == 0, "a tree without failures");
	allocations = nr_calls;
	CHECK(nr_live == allocations && allocations > 2, "%d blocks live of %d allocations",
	      nr_live, allocations);
	memcg_tree_destroy(&tree);
	CHECK(nr_live == 0, "destroyed: %d blocks left", nr_live);

	for (fail_at = 1; fail_at <= allocations; fail_at++) {
		nr_calls = 0;
		CHECK(memcg_tree_create(&tree, 3, 3) == -ENOMEM, "allocation %d failed", fail_at);
		CHECK(nr_live == 0, "allocation %d of %d failed: %d blocks left", fail_at,
		      allocations, nr_live);
		CHECK(tree.nr == 0 && !tree.memcg && !tree.pgdat, "allocation %d failed: the tree "
		      "is empty", fail_at);
	}
	return check_summary();
}
