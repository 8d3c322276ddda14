// SPDX-License-Identifier: GPL-2.0
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int parse_size(const char *str, uint64_t *bytes)
{
	unsigned long long num;
	unsigned int shift = 0;
	char *end;

	if (!strcmp(str, "max")) {
		*bytes = UINT64_MAX;
		return 0;
	}
	if (!isdigit((unsigned char)*str))
		return -EINVAL;

	errno = 0;
	num = strtoull(str, &end, 10);
	if (errno)
		return -EINVAL;

	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	case '\0':
		break;
	default:
		return -EINVAL;
	}
	if (shift) {
		end++;
		if (!strcasecmp(end, "iB"))
			end += 2;
		else if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	if (*end)
		return -EINVAL;
	if (shift && num > (UINT64_MAX >> shift))
		return -EINVAL;

	*bytes = (uint64_t)num << shift;
	return 0;
}

static bool empty_or_space(const char *str)
{
	return !*str || isspace((unsigned char)*str);
}

int parse_s64(const char *str, int64_t min, int64_t max, int64_t *val)
{
	long long num;
	char *end;

	if (empty_or_space(str))
		return -EINVAL;
	errno = 0;
	num = strtoll(str, &end, 0);
	if (errno || *end)
		return -EINVAL;
	if (num < min || num > max)
		return -ERANGE;

	*val = num;
	return 0;
}

int parse_u64(const char *str, uint64_t min, uint64_t max, uint64_t *val)
{
	unsigned long long num;
	char *end;

	/* strtoull() would take "-1" as a huge number */
	if (empty_or_space(str) || *str == '-')
		return -EINVAL;
	errno = 0;
	num = strtoull(str, &end, 0);
	if (errno || *end)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (num < min || num > max)
		return -ERANGE;

	*val = num;
	return 0;
}

int parse_bool(const char *str, bool *val)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(str, yes[i])) {
			*val = true;
			return 0;
		}
		if (!strcasecmp(str, no[i])) {
			*val = false;
			return 0;
		}
	}
	return -EINVAL;
}

int split_assignment(const char *str, char *name, size_t name_len,
		     const char **value)
{
	const char *eq = strchr(str, '=');
	size_t len;

	if (!eq)
		return -EINVAL;
	len = eq - str;
	if (!len || len >= name_len || !eq[1])
		return -EINVAL;

	memcpy(name, str, len);
	name[len] = '\0';
	*value = eq + 1;
	return 0;
}
