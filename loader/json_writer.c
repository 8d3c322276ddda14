// SPDX-License-Identifier: GPL-2.0
/* The JSON writer of every command; see json_writer.h. */
#include "json_writer.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"

bool json_output;
bool json_pretty;

static struct json_object *root;

struct json_object *jw_begin(void)
{
	if (!root)
		root = json_object_new_object();
	return root;
}

static void add(struct json_object *to, const char *key,
		struct json_object *val)
{
	if (json_object_is_type(to, json_type_array))
		json_object_array_add(to, val);
	else
		json_object_object_add(to, key, val);
}

struct json_object *jw_object(struct json_object *to, const char *key)
{
	struct json_object *o = json_object_new_object();

	add(to, key, o);
	return o;
}

struct json_object *jw_array(struct json_object *to, const char *key)
{
	struct json_object *a = json_object_new_array();

	add(to, key, a);
	return a;
}

void jw_string(struct json_object *to, const char *key, const char *val)
{
	add(to, key, val ? json_object_new_string(val) : NULL);
}

void jw_uint(struct json_object *to, const char *key, uint64_t val)
{
	add(to, key, json_object_new_uint64(val));
}

void jw_int(struct json_object *to, const char *key, int64_t val)
{
	add(to, key, json_object_new_int64(val));
}

void jw_double(struct json_object *to, const char *key, double val)
{
	add(to, key, json_object_new_double(val));
}

void jw_bool(struct json_object *to, const char *key, bool val)
{
	add(to, key, json_object_new_boolean(val));
}

void jw_null(struct json_object *to, const char *key)
{
	add(to, key, NULL);
}

int jw_end(int status)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *text;
	int err;

	if (!root)
		return status;
	flags |= json_pretty ?
			 JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			 JSON_C_TO_STRING_PLAIN;
	text = json_object_to_json_string_ext(root, flags);
	err = !text || puts(text) < 0 || fflush(stdout);
	json_object_put(root);
	root = NULL;
	if (err && !status)
		return fail(EXIT_FAILURE_OTHER, "writing the JSON output: %s",
			    text ? strerror(errno) : "out of memory");
	return status;
}
