// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the config file reader of `mglructl apply` and
 * the daemon: any bytes as a policies.conf, through config_load() as the
 * commands call it (validation of the policies it names included, from
 * the shipped objects when MGLRU_POLICY_DIR points at them). Run by
 * `make fuzz`.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../loader/config.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* every input is one error line: keep them out of the fuzzer's log */
	if (!getenv("FUZZ_VERBOSE"))
		freopen("/dev/null", "w", stderr);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct config c;
	char path[64];
	int fd = memfd_create("fuzz_config", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		config_load(path, &c);
	}
	close(fd);
	return 0;
}
