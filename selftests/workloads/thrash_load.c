// SPDX-License-Identifier: GPL-2.0
/*
 * thrash_load: seed 001's workload as one static program for the
 * instruction-clocked bed, in one or more sibling memcgs at once.
 *
 * Each ARM (NAME:CGROUP:VEC:COLD) is a process in cgroup CGROUP that first
 * reads VEC once in order, so that the readers' working set is in the page
 * cache, then starts READERS processes reading 4 KiB pages of VEC through
 * an MADV_RANDOM mapping, each page picked from a zipf(THETA) distribution
 * (fio's --random_distribution=zipf, with the hot pages spread over the
 * file), and at COLD_AT seconds one more process that reads COLD twice,
 * front to back, through a normal mapping. Every INTERVAL_MS the arm
 * writes one line to OUT/NAME.csv:
 *
 *   t,reads_s,refault_s,vec_mb,cold_mb
 *
 * the reads per second of all its readers in that interval, the memcg's
 * file refaults per second, and how much of each file is in the page
 * cache (mincore() of the arm's own mappings). All arms start together,
 * after --wait FILE has something to read (the bed's bed_sync).
 *
 * Nothing is read over 9p and nothing waits on host time: on the
 * instruction-clocked bed a run is a fixed sequence of work in virtual
 * time. OUT should be tmpfs for the same reason.
 *
 * Usage: thrash_load --out DIR [--duration S] [--cold-at S] [--readers N]
 *                    [--theta X] [--interval-ms MS] [--wait FILE] [--progress]
 *                    NAME:CGROUP:VEC:COLD...
 */
#include <math.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char load_name[] = "thrash_load";

#include "bed_load.h"

#define MAX_ARMS 8
#define MAX_READERS 16
/* one counter per cache line, so the readers do not share one */
#define COUNT_STRIDE 8

struct options {
	const char *out;
	const char *wait;
	unsigned long duration_s;
	unsigned long cold_at_s;
	unsigned long readers;
	unsigned long interval_ms;
	double theta;
	int progress;
};

struct arm {
	char *name;
	char *cgroup;
	char *vec_path;
	char *cold_path;
};

struct file_map {
	const char *path;
	size_t size;
	size_t pages;
	unsigned char *map;
};

static void usage(void)
{
	fputs("usage: thrash_load --out DIR [--duration S] [--cold-at S] [--readers "
	      "N] [--theta X]\n"
	      "                   [--interval-ms MS] [--wait FILE] [--progress] "
	      "NAME:CGROUP:VEC:COLD...\n",
	      stderr);
	exit(2);
}

/* Map @f read-only with @advice, its page cache dropped: a run starts cold. */
static void map_file(struct file_map *f, int advice)
{
	struct stat st;
	int fd = open(f->path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st))
		die(f->path);
	f->size = st.st_size;
	f->pages = f->size / PAGE;
	if (!f->pages) {
		errno = EINVAL;
		die(f->path);
	}
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	f->map = mmap(NULL, f->size, PROT_READ, MAP_SHARED, fd, 0);
	if (f->map == MAP_FAILED)
		die("mmap");
	if (madvise(f->map, f->size, advice))
		die("madvise");
	close(fd);
}

/* MiB of @f in the page cache */
static unsigned long cached_mb(const struct file_map *f)
{
	static unsigned char vec[1 << 16];
	size_t chunk = sizeof(vec) * PAGE, off, len, i, n = 0;

	for (off = 0; off < f->size; off += chunk) {
		len = f->size - off < chunk ? f->size - off : chunk;
		if (mincore(f->map + off, len, vec))
			die("mincore");
		for (i = 0; i < (len + PAGE - 1) / PAGE; i++)
			n += vec[i] & 1;
	}
	return n * PAGE >> 20;
}

/* Read every page of @f once, in order, @loops times. */
static void read_in_order(const struct file_map *f, int loops)
{
	volatile unsigned char sink;
	size_t i;

	while (loops--)
		for (i = 0; i < f->pages; i++)
			sink = f->map[i * PAGE];
	(void)sink;
}

/*
 * The cumulative zipf(@theta) weights of @pages ranks: a reader draws a
 * uniform number below the last and finds its rank by bisection.
 */
static double *zipf_cdf(size_t pages, double theta)
{
	double *cdf = malloc(pages * sizeof(*cdf)), sum = 0;
	size_t i;

	if (!cdf)
		die("malloc");
	for (i = 0; i < pages; i++) {
		sum += pow((double)(i + 1), -theta);
		cdf[i] = sum;
	}
	return cdf;
}

/* A reader: zipf-picked pages of @vec, forever, counting into @count. */
static void reader(const struct file_map *vec, const double *cdf, uint64_t seed,
		   volatile uint64_t *count)
{
	double total = cdf[vec->pages - 1], u;
	volatile unsigned char sink;
	size_t lo, hi, mid;
	uint64_t x = seed;

	for (;;) {
		u = (double)(xorshift64(&x) >> 11) / (double)(1ULL << 53) *
		    total;
		for (lo = 0, hi = vec->pages - 1; lo < hi;) {
			mid = (lo + hi) / 2;
			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* rank to page: a multiplicative hash spreads the hot pages */
		sink = vec->map[(lo * 2654435761UL % vec->pages) * PAGE];
		(*count)++;
	}
	(void)sink;
}

/* The memcg's workingset_refault_file. */
static unsigned long long refaults(const char *cgroup)
{
	static const char key[] = "\nworkingset_refault_file ";
	char path[4096], buf[8192], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/memory.stat", cgroup);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	n = read(fd, buf + 1, sizeof(buf) - 2);
	close(fd);
	if (n < 0)
		die(path);
	buf[0] = '\n';
	buf[n + 1] = 0;
	p = strstr(buf, key);
	return p ? strtoull(p + sizeof(key) - 1, NULL, 10) : 0;
}

static pid_t spawn(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	return pid;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ULL,
			       .tv_nsec = ns % 1000000000ULL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/*
 * One arm, in its own process: set up in @a's cgroup, say so on @ready,
 * wait for @go to close, then run and sample for the whole duration.
 */
static void run_arm(const struct options *o, const struct arm *a, int ready,
		    int go)
{
	struct file_map vec = { .path = a->vec_path };
	struct file_map cold = { .path = a->cold_path };
	unsigned long long refault_last, refault_now;
	uint64_t start, next, step, read_last = 0, read_now;
	pid_t readers[MAX_READERS], cold_pid = 0;
	volatile uint64_t *counts;
	unsigned long i, vec_mb, cold_mb;
	char path[4096], byte = 1;
	double *cdf, dt, t;
	FILE *csv;

	join_cgroup(a->cgroup);
	map_file(&vec, MADV_RANDOM);
	map_file(&cold, MADV_NORMAL);
	counts = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED)
		die("mmap");
	cdf = zipf_cdf(vec.pages, o->theta);
	snprintf(path, sizeof(path), "%s/%s.csv", o->out, a->name);
	csv = fopen(path, "w");
	if (!csv)
		die(path);
	fprintf(csv, "t,reads_s,refault_s,vec_mb,cold_mb\n");
	read_in_order(&vec, 1);
	if (write(ready, &byte, 1) != 1)
		die("ready");
	close(ready);
	if (read(go, &byte, 1) < 0)
		die("go");
	close(go);

	for (i = 0; i < o->readers; i++) {
		readers[i] = spawn();
		if (!readers[i])
			reader(&vec, cdf, 0x9e3779b97f4a7c15ULL * (i + 1),
			       &counts[i * COUNT_STRIDE]);
	}
	refault_last = refaults(a->cgroup);
	step = o->interval_ms * 1000000ULL;
	dt = o->interval_ms / 1000.0;
	start = now_ns();
	for (next = start + step; next <= start + o->duration_s * 1000000000ULL;
	     next += step) {
		sleep_until(next);
		if (!cold_pid && next - start > o->cold_at_s * 1000000000ULL) {
			cold_pid = spawn();
			if (!cold_pid) {
				read_in_order(&cold, 2);
				_exit(0);
			}
		}
		for (i = 0, read_now = 0; i < o->readers; i++)
			read_now += counts[i * COUNT_STRIDE];
		refault_now = refaults(a->cgroup);
		vec_mb = cached_mb(&vec);
		cold_mb = cached_mb(&cold);
		t = (double)(next - start) / 1e9;
		fprintf(csv, "%g,%.0f,%.0f,%lu,%lu\n", t,
			(read_now - read_last) / dt,
			(refault_now - refault_last) / dt, vec_mb, cold_mb);
		/* progress once a second, whatever the interval */
		if (o->progress && (next - start) % 1000000000ULL < step)
			fprintf(stderr,
				"thrash_load: %s t=%gs reads/s=%.0f vec %lu MiB, cold %lu MiB "
				"cached\n",
				a->name, t, (read_now - read_last) / dt, vec_mb,
				cold_mb);
		read_last = read_now;
		refault_last = refault_now;
	}
	for (i = 0; i < o->readers; i++)
		kill(readers[i], SIGKILL);
	if (cold_pid)
		kill(cold_pid, SIGKILL);
	while (wait(NULL) > 0)
		;
	if (fclose(csv))
		die(path);
	exit(0);
}

static void parse_arm(struct arm *a, char *spec)
{
	char **field[] = { &a->name, &a->cgroup, &a->vec_path, &a->cold_path };
	size_t i;

	for (i = 0; i < sizeof(field) / sizeof(field[0]); i++) {
		*field[i] = strsep(&spec, ":");
		if (!*field[i] || !**field[i])
			usage();
	}
	if (spec)
		usage();
}

int main(int argc, char **argv)
{
	struct options o = { .duration_s = 60,
			     .cold_at_s = 20,
			     .readers = 2,
			     .interval_ms = 1000,
			     .theta = 0.8 };
	struct arm arms[MAX_ARMS];
	int ready[2], go[2], a, status, failed = 0;
	unsigned long nr_arms = 0, i;
	char byte;
	char *end;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--progress")) {
			o.progress = 1;
			continue;
		}
		if (strncmp(argv[a], "--", 2)) {
			if (nr_arms == MAX_ARMS)
				usage();
			parse_arm(&arms[nr_arms++], argv[a]);
			continue;
		}
		if (a + 1 >= argc)
			usage();
		if (!strcmp(argv[a], "--out"))
			o.out = argv[a + 1];
		else if (!strcmp(argv[a], "--wait"))
			o.wait = argv[a + 1];
		else if (!strcmp(argv[a], "--duration"))
			o.duration_s = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--cold-at"))
			o.cold_at_s = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--readers"))
			o.readers = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--interval-ms"))
			o.interval_ms = number(argv[a + 1]);
		else if (!strcmp(argv[a], "--theta")) {
			o.theta = strtod(argv[a + 1], &end);
			if (*end || end == argv[a + 1] || o.theta <= 0)
				usage();
		} else {
			usage();
		}
		a++;
	}
	if (!o.out || !nr_arms || !o.readers || o.readers > MAX_READERS ||
	    !o.interval_ms || !o.duration_s || o.cold_at_s >= o.duration_s)
		usage();

	if (pipe(ready) || pipe(go))
		die("pipe");
	for (i = 0; i < nr_arms; i++) {
		if (!spawn()) {
			close(ready[0]);
			close(go[1]);
			run_arm(&o, &arms[i], ready[1], go[0]);
		}
	}
	close(ready[1]);
	close(go[0]);
	/* every arm warmed up (an arm that died closes its end unread) */
	for (i = 0; i < nr_arms; i++) {
		if (read(ready[0], &byte, 1) != 1) {
			fputs("thrash_load: an arm failed to set up\n", stderr);
			failed = 1;
			break;
		}
	}
	if (!failed && o.wait)
		wait_for(o.wait);
	close(go[1]);
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	return failed;
}
