// SPDX-License-Identifier: GPL-2.0
/*
 * fail(): every error of mglructl and its test tools as one line on
 * stderr with its exit status (errors.h). Its own unit, so that the tools
 * linking the loader's library say errors the same way; with it
 * xsnprintf(), so that a path that does not fit is that kind of error
 * rather than a shorter path.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "errors.h"

const char *fail_program = "mglructl";
const char *fail_where;

int fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", fail_where ? fail_where : fail_program);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

int xsnprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int fail_too_long(const char *what, const char *path)
{
	return fail(EXIT_NAME_TOO_LONG,
		    "%s is too long (limits: %d bytes, %d per name): %.40s...",
		    what, PATH_MAX - 1, NAME_MAX, path);
}
