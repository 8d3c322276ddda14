// SPDX-License-Identifier: GPL-2.0
/*
 * file_anon_mix: the file/anon mix of seed 000 at VM scale. File workers
 * read a shared file through mmap in batches and pause 100-300 ms after
 * each batch; anon workers map, touch and unmap their own buffer in a loop.
 * Together they need more than the memcg holds, but the file cache can
 * always be evicted, so a good reclaim loop finishes the work without an
 * OOM kill and without refaulting the file workers' pages over and over.
 *
 * Usage: file_anon_mix TAG FILE FILE_WORKERS ANON_WORKERS ANON_KB SECONDS
 *        [BATCH_PAGES]
 * Every thread is called "mix-TAG" (what the kernel's trace events show,
 * so that a trace of several arms tells them apart; a thread's name holds
 * 15 characters).
 * Prints "file_batches N anon_iterations N" at the end: the work done.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static const char *file_map;
static size_t file_pages;
/* pages a file worker reads before it pauses */
static size_t batch_pages = 256;
static size_t anon_bytes;
static atomic_ulong file_batches, anon_iterations;
static atomic_int stop;
static volatile unsigned long sink;

static void pause_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *file_worker(void *arg)
{
	uint64_t x = (uintptr_t)arg * 2654435761u + 1;
	size_t page = (uintptr_t)arg * 4099 % file_pages;
	unsigned long sum = 0;
	size_t i;

	while (!atomic_load(&stop)) {
		for (i = 0; i < batch_pages; i++) {
			sum += file_map[page * PAGE];
			page = (page + 1) % file_pages;
		}
		atomic_fetch_add(&file_batches, 1);
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		pause_ms(100 + x % 201);
	}
	sink += sum;
	return NULL;
}

static void *anon_worker(void *arg)
{
	size_t off;

	(void)arg;
	while (!atomic_load(&stop)) {
		char *buf = mmap(NULL, anon_bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (buf == MAP_FAILED) {
			perror("file_anon_mix: mmap");
			exit(1);
		}
		for (off = 0; off < anon_bytes && !atomic_load(&stop);
		     off += PAGE)
			buf[off] = (char)off;
		munmap(buf, anon_bytes);
		atomic_fetch_add(&anon_iterations, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long file_workers, anon_workers, seconds, i;
	pthread_t *tids;
	char name[16];
	struct stat st;
	int fd;

	if (argc != 7 && argc != 8) {
		fprintf(stderr,
			"usage: file_anon_mix TAG FILE FILE_WORKERS ANON_WORKERS "
			"ANON_KB SECONDS [BATCH_PAGES]\n");
		return 2;
	}
	snprintf(name, sizeof(name), "mix-%s", argv[1]);
	file_workers = strtoul(argv[3], NULL, 0);
	anon_workers = strtoul(argv[4], NULL, 0);
	anon_bytes = strtoul(argv[5], NULL, 0) << 10;
	seconds = strtoul(argv[6], NULL, 0);
	if (argc == 8)
		batch_pages = strtoul(argv[7], NULL, 0);
	if (!file_workers || !anon_workers ||
	    file_workers + anon_workers > 1024 || !anon_bytes || !batch_pages) {
		fprintf(stderr, "file_anon_mix: bad worker count or size\n");
		return 2;
	}
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < (off_t)PAGE) {
		fprintf(stderr, "file_anon_mix: cannot use %s\n", argv[2]);
		return 2;
	}
	file_pages = st.st_size / PAGE;
	file_map = mmap(NULL, file_pages * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (file_map == MAP_FAILED) {
		perror("file_anon_mix: mmap file");
		return 1;
	}

	tids = calloc(file_workers + anon_workers, sizeof(*tids));
	/* the workers inherit it */
	pthread_setname_np(pthread_self(), name);
	for (i = 0; i < file_workers + anon_workers; i++) {
		if (pthread_create(&tids[i], NULL,
				   i < file_workers ? file_worker : anon_worker,
				   (void *)(i + 1))) {
			perror("file_anon_mix: pthread_create");
			return 1;
		}
	}
	sleep(seconds);
	atomic_store(&stop, 1);
	for (i = 0; i < file_workers + anon_workers; i++)
		pthread_join(tids[i], NULL);
	printf("file_batches %lu anon_iterations %lu\n",
	       atomic_load(&file_batches), atomic_load(&anon_iterations));
	return 0;
}
