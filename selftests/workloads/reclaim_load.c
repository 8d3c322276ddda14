// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim_load: a fixed amount of work that makes its memcg reclaim, for
 * measuring what reclaim costs on the instruction-clocked bed.
 *
 *   file  read FILE sequentially with pread(), PASSES times (one pass of
 *         a file several times the memcg is a stream; a second pass
 *         refaults, and what becomes of refaults depends on time-driven
 *         work, see reclaim_overhead.sh)
 *   anon  write-touch TOUCHES pseudo-random pages of an ANON_MB buffer
 *         (first every page once, in order), which swaps when the buffer
 *         is larger than the memcg
 *   mix   both, interleaved: a 16 KiB read of the file, then 16 touches
 *   lockstep  the swappiness reproducer (seed 004): first every page of
 *         the buffer once, then TOUCHES steps of one touch and one 4 KiB
 *         pread() of FILE, at a pseudo-random page (--file-order random,
 *         the default: neither type hotter than the other) or the next
 *         page (sequential: a file larger than TOUCHES pages is a stream
 *         that never refaults, so only anon refaults)
 *
 * The work is the same in every run: the random pages come from a fixed
 * seed, and nothing depends on time. The elapsed CLOCK_MONOTONIC time of
 * the work alone (not of the setup) is printed; on the instruction-clocked
 * bed that is a count of guest instructions.
 *
 * --cgroup DIR moves the program into cgroup DIR first, so that nothing
 * runs between the caller and the work (a shell started to do it would be
 * read over 9p in host time). --wait FILE reads FILE once before the work
 * starts: the bed points it at trace_pipe with one event enabled, so that
 * every run starts just after the same periodic kernel work
 * (selftests/lib/bed.sh, bed_sync).
 *
 * Usage: reclaim_load file|anon|mix|lockstep [--file PATH] [--passes N]
 *                    [--anon-mb MB] [--touches N] [--file-order
 * random|sequential]
 *                    [--cgroup DIR] [--wait FILE]
 * Prints one line: "load=MODE ns=N bytes_read=N touches=N".
 */
#include <sys/mman.h>

static const char load_name[] = "reclaim_load";

#include "bed_load.h"

#define CHUNK (256UL << 10)
#define MIX_CHUNK (16UL << 10)
#define MIX_TOUCHES 16

struct load {
	const char *file;
	unsigned long passes;
	unsigned long anon_mb;
	unsigned long touches;
	int fd;
	off_t file_size;
	off_t file_pos;
	char *buf;
	char *anon;
	unsigned long anon_pages;
	uint64_t rng;
	unsigned long bytes_read;
	unsigned long touched;
};

static void usage(void)
{
	fputs("usage: reclaim_load file|anon|mix|lockstep [--file PATH] [--passes N] "
	      "[--anon-mb MB]\n"
	      "                    [--touches N] [--file-order random|sequential] "
	      "[--cgroup DIR] [--wait FILE]\n",
	      stderr);
	exit(2);
}

static uint64_t next_random(struct load *l)
{
	return xorshift64(&l->rng);
}

static void touch_one(struct load *l)
{
	uint64_t x = next_random(l);

	l->anon[(x % l->anon_pages) * PAGE] = (char)x;
	l->touched++;
}

/* Read the next LEN bytes of the file, wrapping at its end. */
static void read_some(struct load *l, size_t len)
{
	ssize_t n;

	if (l->file_pos >= l->file_size)
		l->file_pos = 0;
	n = pread(l->fd, l->buf, len, l->file_pos);
	if (n < 0)
		die("pread");
	if (n == 0) {
		l->file_pos = l->file_size;
		return;
	}
	l->file_pos += n;
	l->bytes_read += n;
}

/* Write every page of the buffer once, in order. */
static void populate(struct load *l)
{
	unsigned long i;

	for (i = 0; i < l->anon_pages; i++)
		l->anon[i * PAGE] = 1;
}

/* Read one 4 KiB page of the file at a pseudo-random page. */
static void read_random_page(struct load *l)
{
	off_t pages = l->file_size / PAGE;

	if (pread(l->fd, l->buf, PAGE,
		  (off_t)((next_random(l) >> 20) % pages) * PAGE) < 0)
		die("pread");
	l->bytes_read += PAGE;
}

static void setup(struct load *l, int need_file, int need_anon)
{
	if (need_file) {
		if (!l->file) {
			fputs("reclaim_load: --file is required\n", stderr);
			exit(2);
		}
		l->fd = open(l->file, O_RDONLY);
		if (l->fd < 0)
			die(l->file);
		l->file_size = lseek(l->fd, 0, SEEK_END);
		if (l->file_size <= 0)
			die("empty file");
		/* start cold: what another run left cached is not ours */
		posix_fadvise(l->fd, 0, 0, POSIX_FADV_DONTNEED);
		l->buf = malloc(CHUNK);
		if (!l->buf)
			die("malloc");
		memset(l->buf, 0, CHUNK);
	}
	if (need_anon) {
		l->anon_pages = (l->anon_mb << 20) / PAGE;
		if (!l->anon_pages)
			usage();
		l->anon = mmap(NULL, l->anon_pages * PAGE,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (l->anon == MAP_FAILED)
			die("mmap");
	}
}

int main(int argc, char **argv)
{
	struct load l = { .passes = 1,
			  .anon_mb = 96,
			  .touches = 200000,
			  .fd = -1,
			  .rng = 0x9e3779b97f4a7c15ULL };
	const char *mode, *cgroup = NULL, *wait = NULL, *order = "random";
	unsigned long i, p;
	uint64_t start, end;
	int a;

	if (argc < 2)
		usage();
	mode = argv[1];
	for (a = 2; a < argc; a += 2) {
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "--file"))
			l.file = argv[a + 1];
		else if (!strcmp(argv[a], "--passes"))
			l.passes = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--anon-mb"))
			l.anon_mb = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--touches"))
			l.touches = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--file-order"))
			order = argv[a + 1];
		else if (!strcmp(argv[a], "--cgroup"))
			cgroup = argv[a + 1];
		else if (!strcmp(argv[a], "--wait"))
			wait = argv[a + 1];
		else
			usage();
	}
	if (strcmp(order, "random") && strcmp(order, "sequential"))
		usage();
	if (cgroup)
		join_cgroup(cgroup);
	if (wait)
		wait_for(wait);

	if (!strcmp(mode, "file")) {
		setup(&l, 1, 0);
		start = now_ns();
		for (p = 0; p < l.passes; p++) {
			l.file_pos = 0;
			while (l.file_pos < l.file_size)
				read_some(&l, CHUNK);
		}
	} else if (!strcmp(mode, "anon")) {
		setup(&l, 0, 1);
		start = now_ns();
		populate(&l);
		for (i = 0; i < l.touches; i++)
			touch_one(&l);
	} else if (!strcmp(mode, "mix")) {
		setup(&l, 1, 1);
		start = now_ns();
		populate(&l);
		for (i = 0; i < l.touches; i += MIX_TOUCHES) {
			read_some(&l, MIX_CHUNK);
			for (p = 0; p < MIX_TOUCHES; p++)
				touch_one(&l);
		}
	} else if (!strcmp(mode, "lockstep")) {
		setup(&l, 1, 1);
		start = now_ns();
		populate(&l);
		for (i = 0; i < l.touches; i++) {
			touch_one(&l);
			if (order[0] == 'r')
				read_random_page(&l);
			else
				read_some(&l, PAGE);
		}
	} else {
		usage();
	}
	end = now_ns();

	printf("load=%s ns=%llu bytes_read=%lu touches=%lu\n", mode,
	       (unsigned long long)(end - start), l.bytes_read, l.touched);
	return 0;
}
