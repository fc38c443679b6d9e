/* SPDX-License-Identifier: MIT */
/*
 * A result's rows found by the fields they are matched on, in time linear
 * in the result: every (array, fields) pair is hashed once, into a JSON
 * object (jansson's hash table) from the fields' values to the rows that
 * have them, in result order. A table of D designs over N rows then costs
 * N, not D x N: a sweep's result holds up to 16 x 1000 designs.
 *
 * An index holds a reference to its array, so a freed array's address is
 * never taken for another's; it is rebuilt when the array's size changes (a
 * run adds rows), and rows are not changed in place once they are looked
 * up. The output code is single-threaded.
 */
#ifndef PCB_OUTPUT_ROWS_H
#define PCB_OUTPUT_ROWS_H

#include "../../schema/schema.h"

/* the rows of array whose field f is v (a borrowed array, empty if none) */
json_t *pcb_rows_where(json_t *array, enum rj_field f, const char *v);
/* the rows whose fields f and g are v and w */
json_t *pcb_rows_where2(json_t *array, enum rj_field f, const char *v, enum rj_field g,
			const char *w);
/* the first row whose fields f and g are v and w, NULL if none */
json_t *pcb_row_where2(json_t *array, enum rj_field f, const char *v, enum rj_field g,
		       const char *w);
/* the first row whose field f is v, NULL if none */
json_t *pcb_row_where(json_t *array, enum rj_field f, const char *v);

/*
 * the key of values v[0..n) (free() it): each value's length, then its
 * bytes, so no label's bytes can make two keys one; NULL if no memory
 */
char *pcb_rows_key(const char *const *v, int n, size_t *len);

#endif
