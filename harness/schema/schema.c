/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "schema.h"

#define OPT RJ_OPT
#define REQ RJ_REQ
#define FIG RJ_FIG

const struct rj_field_info rj_fields[RJ_F_NR] = {
#define RJ_FIELD(k, n, t, r, need_, old_) \
	[RJ_F_##k##_##n] = { .kind = RJ_K_##k, .name = #n, .type = RJ_##t, .rows = RJ_K_##r, \
			     .need = need_, .old = old_ },
#include "schema.def"
#undef RJ_FIELD
};

#undef OPT
#undef REQ
#undef FIG

const char *const rj_kind_name[RJ_K_NR] = {
#define RJ_KIND_NAME(k) [RJ_K_##k] = #k,
	RJ_KINDS(RJ_KIND_NAME)
#undef RJ_KIND_NAME
};

int rj_find(enum rj_kind kind, const char *name)
{
	for (int f = 0; f < RJ_F_NR; f++)
		if (rj_fields[f].kind == kind && (!strcmp(rj_fields[f].name, name) ||
						  (rj_fields[f].old && !strcmp(rj_fields[f].old, name))))
			return f;
	return -1;
}

json_t *rj_get(json_t *o, enum rj_field f)
{
	json_t *v = json_object_get(o, rj_fields[f].name);

	if (!v && rj_fields[f].old)
		v = json_object_get(o, rj_fields[f].old);
	return v;
}

const char *rj_get_str(json_t *o, enum rj_field f)
{
	const char *s = json_string_value(rj_get(o, f));

	return s ? s : "?";
}

json_int_t rj_get_int(json_t *o, enum rj_field f)
{
	return json_integer_value(rj_get(o, f));
}

double rj_get_num(json_t *o, enum rj_field f)
{
	return json_number_value(rj_get(o, f));
}

int rj_get_bool(json_t *o, enum rj_field f)
{
	return json_is_true(rj_get(o, f));
}

int rj_put(json_t *o, enum rj_field f, json_t *v)
{
	if (rj_fields[f].old)
		json_object_del(o, rj_fields[f].old);
	return json_object_set_new(o, rj_fields[f].name, v);
}

json_t *rj_path(json_t *o, const char *path)
{
	char key[128];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		o = json_object_get(o, key);
		path += n + (path[n] == '.');
	}
	return o;
}

static int type_ok(json_t *v, enum rj_type t)
{
	switch (t) {
	case RJ_STRNULL:
		if (json_is_null(v))
			return 1;
		/* fall through */
	case RJ_STR:
		return json_is_string(v);
	case RJ_INT:
		return json_is_integer(v);
	case RJ_NUMNULL:
		if (json_is_null(v))
			return 1;
		/* fall through */
	case RJ_NUM:
		return json_is_number(v);
	case RJ_BOOLNULL:
		if (json_is_null(v))
			return 1;
		/* fall through */
	case RJ_BOOL:
		return json_is_boolean(v);
	case RJ_OBJ:
	case RJ_NEST:
		return json_is_object(v);
	case RJ_ARR:
	case RJ_ROWS:
		return json_is_array(v);
	}
	return 0;
}

static const char *type_text(enum rj_type t)
{
	static const char *const text[] = {
		[RJ_STR] = "a string", [RJ_STRNULL] = "a string or null",
		[RJ_INT] = "an integer", [RJ_NUM] = "a number",
		[RJ_NUMNULL] = "a number or null", [RJ_BOOL] = "true or false",
		[RJ_BOOLNULL] = "true, false or null", [RJ_OBJ] = "an object",
		[RJ_ARR] = "an array", [RJ_NEST] = "an object", [RJ_ROWS] = "an array",
	};

	return text[t];
}

int rj_check_value(json_t *v, enum rj_type t, int required, const char *path, char *err,
		   size_t errlen)
{
	if (!v && !required)
		return 0;
	if (v && type_ok(v, t))
		return 0;
	snprintf(err, errlen, "%s: %snot %s", path, required ? "missing or " : "", type_text(t));
	return -1;
}

/* path + ".name" (or "name" at the top) */
static void child_path(char *out, size_t len, const char *path, const char *name)
{
	snprintf(out, len, "%s%s%s", path, *path ? "." : "", name);
}

static int check_kind(json_t *o, enum rj_kind kind, const char *path, int depth, char *err,
		      size_t errlen);

/* every element of rows an object of kind, checked */
static int check_rows(json_t *rows, enum rj_kind kind, const char *path, int depth, char *err,
		      size_t errlen)
{
	char at[1024];
	json_t *x;
	size_t i;

	json_array_foreach(rows, i, x) {
		snprintf(at, sizeof(at), "%s[%zu]", path, i);
		if (!json_is_object(x)) {
			snprintf(err, errlen, "%s: not an object", at);
			return -1;
		}
		if (check_kind(x, kind, at, depth + 1, err, errlen) < 0)
			return -1;
	}
	return 0;
}

static int check_kind(json_t *o, enum rj_kind kind, const char *path, int depth, char *err,
		      size_t errlen)
{
	char at[1024];

	/* the schema nests a few levels: deeper is a document that loops, not a result */
	if (depth > 8) {
		snprintf(err, errlen, "%s: nested deeper than the schema", path);
		return -1;
	}
	for (int f = 0; f < RJ_F_NR; f++) {
		const struct rj_field_info *fi = &rj_fields[f];
		json_t *v;

		if (fi->kind != kind)
			continue;
		v = rj_get(o, (enum rj_field)f);
		/* the key the document has: an old result's is the old one */
		child_path(at, sizeof(at), path, v && !json_object_get(o, fi->name) ? fi->old :
			   fi->name);
		if (rj_check_value(v, fi->type, fi->need & RJ_REQ, at, err, errlen) < 0)
			return -1;
		if (v && fi->type == RJ_NEST && check_kind(v, fi->rows, at, depth + 1, err, errlen) < 0)
			return -1;
		if (v && fi->type == RJ_ROWS && check_rows(v, fi->rows, at, depth, err, errlen) < 0)
			return -1;
	}
	return 0;
}

int rj_check(json_t *doc, enum rj_kind kind, char *err, size_t errlen)
{
	if (!json_is_object(doc)) {
		snprintf(err, errlen, "not a JSON object");
		return -1;
	}
	return check_kind(doc, kind, "", 0, err, errlen);
}
