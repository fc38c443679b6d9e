/* SPDX-License-Identifier: MIT */
/* rows.h's indexes: each a JSON object keyed by pcb_rows_key() */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"

/* (array, fields) pairs indexed at once: a compare of a few dozen results */
#define ROWS_INDEXES 256

struct rows_index {
	json_t *array;			/* held */
	size_t size;			/* the array's when it was indexed */
	enum rj_field by[2];
	int nby;
	json_t *map;			/* key -> array of rows */
};

static struct rows_index indexes[ROWS_INDEXES];
static unsigned int next_slot;

char *pcb_rows_key(const char *const *v, int n, size_t *len)
{
	size_t need = 0, at = 0;
	char *key;

	for (int i = 0; i < n; i++)
		need += sizeof(uint32_t) + strlen(v[i]);
	key = malloc(need ? need : 1);
	if (!key)
		return NULL;
	for (int i = 0; i < n; i++) {
		uint32_t l = (uint32_t)strlen(v[i]);

		memcpy(key + at, &l, sizeof(l));
		memcpy(key + at + sizeof(l), v[i], l);
		at += sizeof(l) + l;
	}
	*len = need;
	return key;
}

static int rows_add(json_t *map, json_t *row, const enum rj_field *by, int nby)
{
	const char *v[2];
	json_t *bucket;
	size_t len;
	char *key;
	int rc = -1;

	for (int i = 0; i < nby; i++)
		v[i] = rj_get_str(row, by[i]);
	key = pcb_rows_key(v, nby, &len);
	if (!key)
		return -1;
	bucket = json_object_getn(map, key, len);
	if (!bucket) {
		bucket = json_array();
		if (!bucket || json_object_setn_new_nocheck(map, key, len, bucket) < 0)
			goto out;
	}
	rc = json_array_append(bucket, row);
out:
	free(key);
	return rc;
}

static void rows_drop(struct rows_index *x)
{
	json_decref(x->array);
	json_decref(x->map);
	memset(x, 0, sizeof(*x));
}

static struct rows_index *rows_index(json_t *array, const enum rj_field *by, int nby)
{
	struct rows_index *x = NULL;
	json_t *row;
	size_t i;

	for (i = 0; i < ROWS_INDEXES && !x; i++)
		if (indexes[i].array == array && indexes[i].nby == nby &&
		    !memcmp(indexes[i].by, by, sizeof(*by) * (size_t)nby))
			x = &indexes[i];
	if (x && x->size == json_array_size(array))
		return x;
	if (!x)
		x = &indexes[next_slot++ % ROWS_INDEXES];
	if (x->array)
		rows_drop(x);
	x->map = json_object();
	if (!x->map)
		return NULL;
	json_array_foreach(array, i, row)
		if (rows_add(x->map, row, by, nby) < 0) {
			json_decref(x->map);
			x->map = NULL;
			return NULL;
		}
	x->array = json_incref(array);
	x->size = json_array_size(array);
	memcpy(x->by, by, sizeof(*by) * (size_t)nby);
	x->nby = nby;
	return x;
}

/* the rows of array whose fields by[] are v[]; no memory for an index ends the command */
static json_t *rows_find(json_t *array, const enum rj_field *by, const char *const *v, int nby)
{
	static json_t *none;
	struct rows_index *x;
	json_t *rows;
	size_t len;
	char *key;

	if (!none)
		none = json_array();
	if (!json_is_array(array))
		return none;
	x = rows_index(array, by, nby);
	key = x && none ? pcb_rows_key(v, nby, &len) : NULL;
	if (!key) {
		fprintf(stderr, "pcpbench: out of memory indexing a result's rows\n");
		exit(1);
	}
	rows = json_object_getn(x->map, key, len);
	free(key);
	return rows ? rows : none;
}

json_t *pcb_rows_where(json_t *array, enum rj_field f, const char *v)
{
	return rows_find(array, &f, &v, 1);
}

json_t *pcb_rows_where2(json_t *array, enum rj_field f, const char *v, enum rj_field g,
			const char *w)
{
	const enum rj_field by[2] = { f, g };
	const char *vs[2] = { v, w };

	return rows_find(array, by, vs, 2);
}

json_t *pcb_row_where(json_t *array, enum rj_field f, const char *v)
{
	return json_array_get(pcb_rows_where(array, f, v), 0);
}

json_t *pcb_row_where2(json_t *array, enum rj_field f, const char *v, enum rj_field g,
		       const char *w)
{
	return json_array_get(pcb_rows_where2(array, f, v, g, w), 0);
}
