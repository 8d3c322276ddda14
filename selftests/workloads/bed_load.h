/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the bed's static loads (reclaim_load, thrash_load) share: errors,
 * numbers, a fixed pseudo-random sequence, joining a cgroup, waiting for
 * the bed's start signal and the clock. Each load defines load_name and
 * usage() before including this.
 */
#ifndef BED_LOAD_H
#define BED_LOAD_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL

static void usage(void);

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", load_name, what, strerror(errno));
	exit(1);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s)
		usage();
	return v;
}

/* xorshift64: a fixed sequence from a fixed seed */
static uint64_t xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Move this process into cgroup @dir. */
static void join_cgroup(const char *dir)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		die(path);
	if (write(fd, "0\n", 2) != 2)
		die(path);
	close(fd);
}

/* Block until @path has something to read (the bed's bed_sync). */
static void wait_for(const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	if (read(fd, buf, sizeof(buf)) < 0)
		die(path);
	close(fd);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif /* BED_LOAD_H */
