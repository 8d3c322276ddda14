// SPDX-License-Identifier: GPL-2.0
/*
 * anon_touch: threads write-touching random pages of one shared anonymous
 * buffer, the isolation pile-up reproducer of seed 003 (and plain anon
 * pressure for the other tests).
 *
 * Usage: anon_touch SIZE_MB THREADS SECONDS
 * Prints "touches N" at the end: the work done.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static char *buf;
static size_t nr_pages;
static atomic_ulong touches;
static volatile int stop;

static void *toucher(void *arg)
{
	uint64_t x = (uintptr_t)arg * 2654435761u + 1;
	unsigned long mine = 0;

	while (!stop) {
		/* xorshift: cheap, different per thread */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[(x % nr_pages) * 4096] = (char)x;
		if (++mine % 256 == 0)
			atomic_fetch_add(&touches, 256);
	}
	atomic_fetch_add(&touches, mine % 256);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long size_mb, threads, seconds, i;
	pthread_t *tids;

	if (argc != 4) {
		fprintf(stderr, "usage: anon_touch SIZE_MB THREADS SECONDS\n");
		return 2;
	}
	size_mb = strtoul(argv[1], NULL, 0);
	threads = strtoul(argv[2], NULL, 0);
	seconds = strtoul(argv[3], NULL, 0);
	if (!size_mb || !threads || threads > 4096) {
		fprintf(stderr, "anon_touch: bad size or thread count\n");
		return 2;
	}

	nr_pages = size_mb * 256;
	buf = mmap(NULL, nr_pages * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("anon_touch: mmap");
		return 1;
	}
	tids = calloc(threads, sizeof(*tids));
	for (i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, toucher, (void *)(i + 1))) {
			perror("anon_touch: pthread_create");
			return 1;
		}
	sleep(seconds);
	stop = 1;
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	printf("touches %lu\n", (unsigned long)atomic_load(&touches));
	return 0;
}
