// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over mglructl's parsers: sizes, integers, booleans and
 * knob assignments. Run by `make fuzz`; a crash it finds gets a
 * regression case in selftests/host/test_parse.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../loader/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1);
	char name[64];
	const char *value;
	uint64_t u;
	int64_t s;
	bool b;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';

	parse_size(str, &u);
	parse_s64(str, -100, 100, &s);
	parse_u64(str, 1, 1000, &u);
	parse_bool(str, &b);
	if (!split_assignment(str, name, sizeof(name), &value))
		parse_u64(value, 0, UINT64_MAX, &u);

	free(str);
	return 0;
}
