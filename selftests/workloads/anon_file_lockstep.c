// SPDX-License-Identifier: GPL-2.0
/*
 * anon_file_lockstep: the swappiness reproducer of baseline-stock-6.12.md
 * (seed 004): an anonymous buffer written and a file read with 4 KiB
 * pread(), at equal rates. Each step writes one random page of the buffer
 * and reads one random page of the file, so neither type is hotter than
 * the other and the anon:file split of reclaim is left to swappiness.
 * (A toucher running flat out next to a reader would keep every anon page
 * in the youngest generation and say nothing about swappiness.)
 *
 * Usage: anon_file_lockstep ANON_MB FILE SECONDS
 * Prints "steps N" at the end: the work done.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t anon_pages, file_pages, i;
	unsigned long steps = 0;
	uint64_t x = 88172645463325252ull;
	double end;
	char page[PAGE];
	struct stat st;
	char *buf;
	int fd;

	if (argc != 4) {
		fprintf(stderr,
			"usage: anon_file_lockstep ANON_MB FILE SECONDS\n");
		return 2;
	}
	anon_pages = strtoul(argv[1], NULL, 0) * (1 << 20) / PAGE;
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[2]);
		return 1;
	}
	file_pages = st.st_size / PAGE;
	if (!anon_pages || !file_pages) {
		fprintf(stderr, "anon_file_lockstep: empty buffer or file\n");
		return 2;
	}
	buf = mmap(NULL, anon_pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* populate it first, so the steps find it resident or swapped out */
	for (i = 0; i < anon_pages; i++)
		buf[i * PAGE] = 1;

	end = now() + strtod(argv[3], NULL);
	while (now() < end) {
		/* 256 steps between clock reads; xorshift for both offsets */
		for (i = 0; i < 256; i++, steps++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[(x % anon_pages) * PAGE] = (char)x;
			if (pread(fd, page, PAGE,
				  (off_t)((x >> 20) % file_pages) * PAGE) < 0) {
				perror("pread");
				return 1;
			}
		}
	}
	printf("steps %lu\n", steps);
	return 0;
}
