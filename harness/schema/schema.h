/* SPDX-License-Identifier: MIT */
/*
 * result.json's schema (schema.def): every field's name, type, the object
 * it lives in and the key it had before a rename, declared once. From the
 * table come an enum of fields (RJ_F_<kind>_<name>), one accessor a field
 * (rj_<kind>_<name>(), which reads the old key where the new one is
 * absent), its presence (rj_<kind>_has_<name>()), its setter
 * (rj_set_<kind>_<name>(), which writes the new key), and rj_check(), the
 * one place a missing or mistyped field is found and named by its JSON
 * path. A document rj_check() passed has every field it holds of its
 * type; an accessor of an absent field gives "?", 0 or NULL.
 */
#ifndef PCB_SCHEMA_H
#define PCB_SCHEMA_H

#include <stddef.h>

#include <jansson.h>

#define RJ_KINDS(X) X(none) X(top) X(ctx) X(node) X(tov) X(plat) X(mst) X(kbe) X(ibe) X(sc) X(design) X(work) \
	X(worker) X(ovh) X(fn) X(fnrun) X(drain) X(drainrun) X(cont) X(irq) X(ctr) X(pcall) \
	X(diff) X(cmp) X(cmpres) X(cmpdiff) X(cmprow) X(cmpmiss)

enum rj_kind {
#define RJ_KIND_ENUM(k) RJ_K_##k,
	RJ_KINDS(RJ_KIND_ENUM)
#undef RJ_KIND_ENUM
	RJ_K_NR
};

enum rj_type {
	RJ_STR, RJ_STRNULL, RJ_INT, RJ_NUM, RJ_NUMNULL, RJ_BOOL, RJ_BOOLNULL,
	RJ_OBJ, RJ_ARR, RJ_NEST, RJ_ROWS,
};

/* schema.def's need column */
#define RJ_OPT 0
#define RJ_REQ 1		/* a document without it is refused */
#define RJ_FIG 2		/* a claim's selector may name it */

enum rj_field {
#define RJ_FIELD(kind, name, type, rows, need, old) RJ_F_##kind##_##name,
#include "schema.def"
#undef RJ_FIELD
	RJ_F_NR
};

struct rj_field_info {
	enum rj_kind kind;
	const char *name;
	enum rj_type type;
	enum rj_kind rows;		/* NEST, ROWS: the kind of what is inside */
	int need;			/* RJ_REQ, RJ_FIG */
	const char *old;		/* the key before a rename, or NULL */
};

extern const struct rj_field_info rj_fields[RJ_F_NR];
extern const char *const rj_kind_name[RJ_K_NR];

/* f's key as it is written */
static inline const char *rj_name(enum rj_field f)
{
	return rj_fields[f].name;
}

/* the field of kind called name (or once called so), else -1 */
int rj_find(enum rj_kind kind, const char *name);

/* f's value in object o, under its key or its old one; NULL when absent */
json_t *rj_get(json_t *o, enum rj_field f);
const char *rj_get_str(json_t *o, enum rj_field f);	/* "?" when absent */
json_int_t rj_get_int(json_t *o, enum rj_field f);
double rj_get_num(json_t *o, enum rj_field f);
int rj_get_bool(json_t *o, enum rj_field f);
/* f set in o (the new key, the old one dropped): 0, or -1 when v is NULL */
int rj_put(json_t *o, enum rj_field f, json_t *v);

/*
 * A document of kind checked against the schema, its arrays of rows and
 * nested objects too: 0, or -1 with err naming the first field at fault by
 * its JSON path ("designs[2].invariant: not a string").
 */
int rj_check(json_t *doc, enum rj_kind kind, char *err, size_t errlen);
/*
 * The one error path: v (NULL when absent) is of type t at path, or, when
 * absent, not required; else -1 with err saying so.
 */
int rj_check_value(json_t *v, enum rj_type t, int required, const char *path, char *err,
		   size_t errlen);

/* the value at a dot-separated path under o ("events.hit_rate"), NULL when absent */
json_t *rj_path(json_t *o, const char *path);

/* the C types of the accessors and setters */
#define RJ_CT_STR const char *
#define RJ_CT_STRNULL const char *
#define RJ_CT_INT json_int_t
#define RJ_CT_NUM double
#define RJ_CT_NUMNULL double
#define RJ_CT_BOOL int
#define RJ_CT_BOOLNULL int
#define RJ_CT_OBJ json_t *
#define RJ_CT_ARR json_t *
#define RJ_CT_NEST json_t *
#define RJ_CT_ROWS json_t *

#define RJ_GET_STR rj_get_str
#define RJ_GET_STRNULL rj_get_str
#define RJ_GET_INT rj_get_int
#define RJ_GET_NUM rj_get_num
#define RJ_GET_NUMNULL rj_get_num
#define RJ_GET_BOOL rj_get_bool
#define RJ_GET_BOOLNULL rj_get_bool
#define RJ_GET_OBJ rj_get
#define RJ_GET_ARR rj_get
#define RJ_GET_NEST rj_get
#define RJ_GET_ROWS rj_get

#define RJ_NEW_STR(v) json_string(v)
#define RJ_NEW_STRNULL(v) json_string(v)
#define RJ_NEW_INT(v) json_integer(v)
#define RJ_NEW_NUM(v) json_real(v)
#define RJ_NEW_NUMNULL(v) json_real(v)
#define RJ_NEW_BOOL(v) json_boolean(v)
#define RJ_NEW_BOOLNULL(v) json_boolean(v)
#define RJ_NEW_OBJ(v) (v)
#define RJ_NEW_ARR(v) (v)
#define RJ_NEW_NEST(v) (v)
#define RJ_NEW_ROWS(v) (v)

#define RJ_FIELD(kind, name, type, rows, need, old)				\
static inline RJ_CT_##type rj_##kind##_##name(json_t *o)			\
{										\
	return RJ_GET_##type(o, RJ_F_##kind##_##name);				\
}										\
static inline int rj_##kind##_has_##name(json_t *o)				\
{										\
	return rj_get(o, RJ_F_##kind##_##name) != NULL;				\
}										\
static inline int rj_set_##kind##_##name(json_t *o, RJ_CT_##type v)		\
{										\
	return rj_put(o, RJ_F_##kind##_##name, RJ_NEW_##type(v));		\
}
#include "schema.def"
#undef RJ_FIELD

#endif
