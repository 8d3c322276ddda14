// SPDX-License-Identifier: GPL-2.0
#include "log.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool log_verbose;
static char *log_buf;
static size_t log_len, log_cap;

static int print_fn(enum libbpf_print_level level, const char *fmt,
		    va_list args)
{
	va_list copy;
	int n;

	if (log_verbose)
		return vfprintf(stderr, fmt, args);
	if (level == LIBBPF_DEBUG)
		return 0;

	va_copy(copy, args);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		return n;
	if (log_len + n + 1 > log_cap) {
		size_t cap = (log_len + n + 1) * 2;
		char *buf = realloc(log_buf, cap);

		if (!buf)
			return 0;
		log_buf = buf;
		log_cap = cap;
	}
	vsnprintf(log_buf + log_len, log_cap - log_len, fmt, args);
	log_len += n;
	return n;
}

void log_setup(bool verbose)
{
	log_verbose = verbose;
	libbpf_set_print(print_fn);
}

void log_clear(void)
{
	log_len = 0;
	if (log_buf)
		log_buf[0] = '\0';
}

bool log_has_verifier_log(void)
{
	return log_buf && strstr(log_buf, "BEGIN PROG LOAD LOG");
}

static bool boring(const char *line)
{
	return !*line || !strncmp(line, "processed ", 10) ||
	       !strncmp(line, "verification time", 17) ||
	       !strncmp(line, "stack depth", 11) ||
	       strstr(line, "END PROG LOAD LOG") ||
	       !strncmp(line, "libbpf:", 7);
}

void log_verifier_summary(char *buf, size_t len)
{
	char *begin, *line, *save = NULL, *copy;

	snprintf(buf, len, "see the log with -v");
	if (!log_buf)
		return;
	begin = strstr(log_buf, "BEGIN PROG LOAD LOG");
	if (!begin)
		return;
	copy = strdup(begin);
	if (!copy)
		return;
	/* skip the BEGIN line itself, keep the last meaningful line */
	for (line = strtok_r(copy, "\n", &save),
	    line = strtok_r(NULL, "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "END PROG LOAD LOG"))
			break;
		if (!boring(line))
			snprintf(buf, len, "%s", line);
	}
	free(copy);
}
