/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of command-line values: sizes, integers in a range, knobs. */
#ifndef MGLRUCTL_PARSE_H
#define MGLRUCTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A size in bytes: a number with an optional K, M, G or T suffix (powers
 * of 1024, optionally followed by "B" or "iB"), or "max". Returns 0 or
 * -EINVAL; "max" gives UINT64_MAX.
 */
int parse_size(const char *str, uint64_t *bytes);

/* A whole number in [min, max], decimal, hex (0x) or octal (0). */
int parse_s64(const char *str, int64_t min, int64_t max, int64_t *val);
int parse_u64(const char *str, uint64_t min, uint64_t max, uint64_t *val);

/* A boolean: 1/0, true/false, yes/no, on/off. */
int parse_bool(const char *str, bool *val);

/*
 * Split "NAME=VALUE" into its two parts. @name gets at most @name_len - 1
 * characters. Returns -EINVAL when there is no '=', the name is empty or
 * too long, or the value is empty.
 */
int split_assignment(const char *str, char *name, size_t name_len,
		     const char **value);

#endif /* MGLRUCTL_PARSE_H */
