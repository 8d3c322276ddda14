/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mglructl's one JSON writer, on json-c, after bpftool's: with -j
 * (--json) a command builds one document instead of printing text, and
 * main() prints it once, on stdout, when the command returns; -p
 * (--pretty) indents it. Errors stay one line on stderr (errors.h), with
 * or without -j, and a command that fails before it has something to
 * report begins no document: stdout is then empty.
 *
 * A value goes into an object under @key, or at the end of an array
 * when @key is NULL. A NULL string is JSON null.
 */
#ifndef MGLRUCTL_JSON_WRITER_H
#define MGLRUCTL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

extern bool json_output; /* -j, --json */
extern bool json_pretty; /* -p, --pretty (implies -j) */

/* Begin the document with an object as its root, and return the root. */
struct json_object *jw_begin(void);

/* A new object or array in @to; returns it, to fill. */
struct json_object *jw_object(struct json_object *to, const char *key);
struct json_object *jw_array(struct json_object *to, const char *key);

void jw_string(struct json_object *to, const char *key, const char *val);
void jw_uint(struct json_object *to, const char *key, uint64_t val);
void jw_int(struct json_object *to, const char *key, int64_t val);
void jw_double(struct json_object *to, const char *key, double val);
void jw_bool(struct json_object *to, const char *key, bool val);
void jw_null(struct json_object *to, const char *key);

/*
 * Print the document, if one was begun, and free it. Returns @status, or
 * EXIT_FAILURE_OTHER when @status is 0 and stdout could not take it.
 */
int jw_end(int status);

#endif /* MGLRUCTL_JSON_WRITER_H */
