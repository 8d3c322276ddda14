// SPDX-License-Identifier: GPL-2.0
/*
 * fail(): every error of mglructl and its test tools as one line on
 * stderr with its exit status (errors.h). Its own unit, so that the tools
 * linking the loader's library say errors the same way.
 */
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
