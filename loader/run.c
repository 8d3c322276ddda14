// SPDX-License-Identifier: GPL-2.0
/*
 * mglructl run and compare: a command in temporary cgroups, one per
 * policy, with what reclaim did there. compare runs the command under two
 * policies at the same time in sibling cgroups, so both sides see the same
 * machine, and repeats that to give the spread of every figure.
 */
#define _GNU_SOURCE
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "errors.h"
#include "json_writer.h"
#include "kernel.h"
#include "memcg.h"
#include "mglructl.h"
#include "parse.h"
#include "policy.h"

const char run_usage[] =
	"Usage: mglructl run --policy P [--set KNOB=VALUE]... [--memory-max SIZE]\n"
	"                    [--swap-max SIZE] -- CMD [ARGS]...\n"
	"\n"
	"Create a temporary cgroup, apply the limits, attach policy P to it\n"
	"(P may be 'none': stock reclaim, for comparisons), run CMD inside,\n"
	"then print the policy's counters and the cgroup's reclaim statistics\n"
	"and remove the cgroup. Exits with CMD's status. SIZE takes K, M, G.\n"
	"\n"
	"With -j, CMD's output goes to stderr and stdout has one document:\n"
	"{command [...], policy, memory_max, swap_max, exit_status, wall_s,\n"
	"attached (the policy as 'mglructl -j status' shows it, null for none),\n"
	"memory_stat {...}, memory_events {oom, oom_kill}, memory_pressure\n"
	"{some_total_us, full_total_us}}.\n";

const char compare_usage[] =
	"Usage: mglructl compare [--policy A] [--policy B] [--set KNOB=VALUE]...\n"
	"                        [--memory-max SIZE] [--swap-max SIZE] [--repeat N]\n"
	"                        -- CMD [ARGS]...\n"
	"\n"
	"Run CMD twice at the same time, in two sibling temporary cgroups with\n"
	"the same limits, one under policy A and one under policy B ('none' is\n"
	"stock MGLRU; one --policy gives B and leaves A 'none'), and print one\n"
	"table side by side: wall time, exit status, pgscan, pgsteal, refaults,\n"
	"OOM kills, PSI memory some/full and the policies' decision counters.\n"
	"A --set applies to the --policy before it. With --repeat N the pair\n"
	"runs N times and each figure is the median with its range. The\n"
	"commands' output goes to stderr, prefixed with their side. CMD finds\n"
	"its side (A, B) in MGLRUCTL_SIDE and its run (1..N) in MGLRUCTL_RUN:\n"
	"give each side its own files, or the side that reads a shared file\n"
	"first is charged for its page cache. Exits 16 when a command failed\n"
	"on either side, else 0.\n"
	"\n"
	"With -j (or compare --json): {command [...], repeat, memory_max,\n"
	"swap_max, sides {A, B}}, each side {policy, runs [{FIGURE: VALUE...}],\n"
	"summary {FIGURE: {median, min, max}}}.\n";

/* One policy's side of a run or a comparison. */
struct side {
	char label; /* 'A', 'B' */
	const char *policy; /* "none": stock */
	struct knob_sets sets;
	char cg[PATH_MAX];
	struct policy p;
	struct bpf_link *link;
	uint64_t cgroup_id, id;
	pid_t pid;
	int out_fd; /* where the command's output goes, -1: ours */
	/* results */
	int status;
	double wall_s;
	struct memcg_report rep;
	struct kpolicy kp;
	bool have_kp;
};

static bool is_stock(const struct side *s)
{
	return !strcmp(s->policy, "none");
}

static int side_setup(struct side *s, const char *mem, const char *swp)
{
	char name[64], where[PATH_MAX];
	int ret;

	if (s->label == 'R')
		snprintf(name, sizeof(name), "mglructl-run-%d", getpid());
	else
		snprintf(name, sizeof(name), "mglructl-compare-%d-%c", getpid(),
			 s->label);
	ret = memcg_create(name, mem, swp, s->cg, sizeof(s->cg));
	if (ret)
		return ret;
	if (is_stock(s))
		return 0;
	ret = attach_policy(&s->p, s->policy, s->cg, s->sets.v, s->sets.n,
			    false, &s->link, &s->cgroup_id, where,
			    sizeof(where));
	if (ret) {
		memcg_remove(s->cg);
		return ret;
	}
	s->id = newest_policy(s->p.name, s->cgroup_id);
	return 0;
}

static void side_teardown(struct side *s)
{
	if (s->link) {
		bpf_link__destroy(s->link);
		s->link = NULL;
	}
	if (s->p.obj)
		policy_close(&s->p);
	memcg_remove(s->cg);
}

/*
 * Fork CMD into the side's cgroup; it execs once every copy of the pipe's
 * write end @go_w is closed and @go_fd reads EOF (-1, -1: at once). A
 * compared command learns its side and run from MGLRUCTL_SIDE and
 * MGLRUCTL_RUN: two sides reading one file at once would share its page
 * cache, and only the side that faulted a page in is charged for it.
 */
static int side_spawn(struct side *s, char **cmd, int go_fd, int go_w, int rep)
{
	char label[2] = { s->label, 0 }, run[16];
	char c;

	s->pid = fork();
	if (s->pid < 0)
		return fail(EXIT_FAILURE_OTHER, "fork: %s", strerror(errno));
	if (s->pid)
		return 0;
	if (memcg_write(s->cg, "cgroup.procs", "0")) {
		fprintf(stderr, "mglructl: cannot enter %s\n", s->cg);
		_exit(127);
	}
	if (s->label != 'R') {
		snprintf(run, sizeof(run), "%d", rep + 1);
		if (setenv("MGLRUCTL_SIDE", label, 1) ||
		    setenv("MGLRUCTL_RUN", run, 1))
			_exit(127);
	}
	if (go_w >= 0)
		close(go_w);
	if (go_fd >= 0)
		while (read(go_fd, &c, 1) < 0 && errno == EINTR)
			;
	if (s->out_fd >= 0) {
		dup2(s->out_fd, STDOUT_FILENO);
		dup2(s->out_fd, STDERR_FILENO);
	}
	execvp(cmd[0], cmd);
	fprintf(stderr, "mglructl: cannot run %s: %s\n", cmd[0],
		strerror(errno));
	_exit(127);
}

/* Reap the side's command and read what its cgroup and policy saw. */
static void side_finish(struct side *s, int status, double start)
{
	s->wall_s = monotonic_s() - start;
	s->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					128 + WTERMSIG(status);
	memcg_read_report(s->cg, &s->rep);
	s->have_kp = s->link && !find_kpolicy(s->id, &s->kp);
}

/* Wait for the commands of @n sides. */
static void wait_sides(struct side *sides, int n, double start)
{
	int left = n, status, i;
	pid_t pid;

	while (left) {
		pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			if (sides[i].pid == pid) {
				side_finish(&sides[i], status, start);
				left--;
			}
		}
	}
}

/*
 * The printer of what a cgroup's own files said: the memory.stat and
 * memory.events lines, or in JSON those and the memory.pressure totals.
 */
static void show_memcg_report(const struct memcg_report *r,
			      struct json_object *j)
{
	struct json_object *o;

	if (j) {
		o = jw_object(j, "memory_stat");
		jw_uint(o, "pgscan", r->pgscan);
		jw_uint(o, "pgsteal", r->pgsteal);
		jw_uint(o, "pgmajfault", r->pgmajfault);
		jw_uint(o, "workingset_refault_anon", r->refault_anon);
		jw_uint(o, "workingset_refault_file", r->refault_file);
		jw_uint(o, "workingset_activate_file", r->activate_file);
		o = jw_object(j, "memory_events");
		jw_uint(o, "oom", r->oom);
		jw_uint(o, "oom_kill", r->oom_kill);
		o = jw_object(j, "memory_pressure");
		jw_uint(o, "some_total_us", r->psi_some_us);
		jw_uint(o, "full_total_us", r->psi_full_us);
		return;
	}
	printf("memory.stat: pgscan=%llu pgsteal=%llu pgmajfault=%llu workingset_refault_anon=%llu workingset_refault_file=%llu workingset_activate_file=%llu\n",
	       (unsigned long long)r->pgscan, (unsigned long long)r->pgsteal,
	       (unsigned long long)r->pgmajfault,
	       (unsigned long long)r->refault_anon,
	       (unsigned long long)r->refault_file,
	       (unsigned long long)r->activate_file);
	printf("memory.events: oom=%llu oom_kill=%llu\n",
	       (unsigned long long)r->oom, (unsigned long long)r->oom_kill);
}

/* What the options of run and compare say. */
struct run_opts {
	struct side sides[2];
	int nr_sides, max_sides;
	const char *mem, *swp, *repeat_arg;
	int repeat;
};

static const char *add_policy(void *dst, const char *value)
{
	struct run_opts *o = dst;

	if (o->nr_sides == o->max_sides)
		return "too many --policy";
	o->sides[o->nr_sides++].policy = value;
	return NULL;
}

/* --set belongs to the --policy before it */
static const char *add_side_set(void *dst, const char *value)
{
	struct run_opts *o = dst;

	if (!o->nr_sides)
		return "--set comes after the --policy it sets";
	return add_set(&o->sides[o->nr_sides - 1].sets, value);
}

/*
 * Parse @opts, run's or compare's own table, into @o and check what they
 * say together.
 */
static int parse_run_opts(int argc, char **argv, const struct opt *opts,
			  const char *usage, bool compare, struct run_opts *o)
{
	uint64_t v;
	int ret;

	o->max_sides = compare ? 2 : 1;
	ret = parse_options(argc, argv, opts, usage, ARGS_COMMAND);
	if (ret)
		return ret;
	o->repeat = 1;
	if (o->repeat_arg && parse_u64(o->repeat_arg, 1, 1000, &v))
		return usage_error(usage, "bad --repeat '%s'", o->repeat_arg);
	if (o->repeat_arg)
		o->repeat = v;
	if (o->mem && parse_size(o->mem, &v))
		return usage_error(usage, "bad --memory-max '%s'", o->mem);
	if (o->swp && parse_size(o->swp, &v))
		return usage_error(usage, "bad --swap-max '%s'", o->swp);
	if (optind >= argc)
		return usage_error(usage, "%s needs a command after --",
				   compare ? "compare" : "run");
	if (!compare && !o->nr_sides)
		return usage_error(usage,
				   "run needs --policy (or --policy none)");
	if (compare && o->nr_sides < 2) {
		/* one --policy is B, against stock */
		if (o->nr_sides == 1)
			o->sides[1] = o->sides[0];
		memset(&o->sides[0], 0, sizeof(o->sides[0]));
		o->sides[0].policy = "none";
		if (!o->nr_sides)
			o->sides[1].policy = "none";
		o->nr_sides = 2;
	}
	o->sides[0].label = 'A';
	o->sides[1].label = 'B';
	return 0;
}

/* JSON's "command": @cmd's words. */
static void show_command(char **cmd, struct json_object *j)
{
	struct json_object *c = jw_array(j, "command");

	for (; *cmd; cmd++)
		jw_string(c, NULL, *cmd);
}

/* The printer of a run: how CMD ended, the policy's counters, the cgroup's. */
static void show_run(const struct run_opts *o, char **cmd,
		     struct json_object *j)
{
	const struct side *s = &o->sides[0];

	if (j) {
		show_command(cmd, j);
		jw_string(j, "policy", s->link ? s->p.name : "none");
		jw_string(j, "memory_max", o->mem);
		jw_string(j, "swap_max", o->swp);
		jw_int(j, "exit_status", s->status);
		jw_double(j, "wall_s", s->wall_s);
		if (s->have_kp)
			show_kpolicy(&s->kp, jw_object(j, "attached"));
		else
			jw_null(j, "attached");
		show_memcg_report(&s->rep, j);
		return;
	}
	printf("--- mglructl run: %s exited with status %d under policy %s\n",
	       cmd[0], s->status, s->link ? s->p.name : "none (stock)");
	if (s->have_kp) {
		printf("policy: ");
		show_counters(&s->kp, NULL);
		if (s->kp.state != KSTATE_ATTACHED)
			show_exit(&s->kp, NULL);
	}
	show_memcg_report(&s->rep, NULL);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {};
	const struct opt opts[] = {
		OPT_FN("policy", 'p', add_policy, &o),
		OPT_FN("set", 's', add_side_set, &o),
		OPT("memory-max", 'm', OPT_VALUE, &o.mem),
		OPT("swap-max", 'w', OPT_VALUE, &o.swp),
		{},
	};
	struct side *s = &o.sides[0];
	int ret;

	ret = parse_run_opts(argc, argv, opts, run_usage, false, &o);
	if (ret)
		return ret;
	/* with -j, stdout is the document's: CMD writes to stderr */
	s->out_fd = json_output ? STDERR_FILENO : -1;
	s->label = 'R';
	ret = side_setup(s, o.mem, o.swp);
	if (ret)
		return ret;
	fflush(stdout);
	ret = side_spawn(s, argv + optind, -1, -1, 0);
	if (!ret) {
		signal(SIGINT, SIG_IGN);
		wait_sides(s, 1, monotonic_s());
		ret = s->status;
		show_run(&o, argv + optind, json_output ? jw_begin() : NULL);
	}
	side_teardown(s);
	return ret;
}

/* The figures compare reports, in this order: one list, the enum and names. */
#define FIGURES(X)                       \
	X(WALL, "wall_s")                \
	X(STATUS, "exit_status")         \
	X(PGSCAN, "pgscan")              \
	X(PGSTEAL, "pgsteal")            \
	X(REFAULT_ANON, "refault_anon")  \
	X(REFAULT_FILE, "refault_file")  \
	X(OOM_KILL, "oom_kill")          \
	X(PSI_SOME, "psi_some_s")        \
	X(PSI_FULL, "psi_full_s")        \
	X(CALLS, "policy_calls")         \
	X(REFUSED, "policy_refused")     \
	X(THROTTLES, "policy_throttles") \
	X(AGINGS, "policy_agings")

#define FIGURE_ENUM(id, name) FIG_##id,
#define FIGURE_NAME(id, name) name,
enum figure { FIGURES(FIGURE_ENUM) NR_FIGURES };
static const char *const figure_names[NR_FIGURES] = { FIGURES(FIGURE_NAME) };

static void side_figures(const struct side *s, double *f)
{
	f[FIG_WALL] = s->wall_s;
	f[FIG_STATUS] = s->status;
	f[FIG_PGSCAN] = s->rep.pgscan;
	f[FIG_PGSTEAL] = s->rep.pgsteal;
	f[FIG_REFAULT_ANON] = s->rep.refault_anon;
	f[FIG_REFAULT_FILE] = s->rep.refault_file;
	f[FIG_OOM_KILL] = s->rep.oom_kill;
	f[FIG_PSI_SOME] = s->rep.psi_some_us / 1e6;
	f[FIG_PSI_FULL] = s->rep.psi_full_us / 1e6;
	f[FIG_CALLS] = s->have_kp ? kp_total_calls(&s->kp) : 0;
	f[FIG_REFUSED] = s->have_kp ? kp_counter(&s->kp, "refused") : 0;
	f[FIG_THROTTLES] = s->have_kp ? kp_counter(&s->kp, "throttles") : 0;
	f[FIG_AGINGS] = s->have_kp ? kp_counter(&s->kp, "agings") : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct summary {
	double median, min, max;
};

static struct summary summarize(const double *v, int n)
{
	double sorted[1000];
	struct summary s;

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s.min = sorted[0];
	s.max = sorted[n - 1];
	s.median = n % 2 ? sorted[n / 2] :
			   (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	return s;
}

/* Show the command's output, each line prefixed with its side and run. */
static void dump_output(const struct side *s, int rep)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	lseek(s->out_fd, 0, SEEK_SET);
	f = fdopen(dup(s->out_fd), "r");
	if (!f)
		return;
	/* whole lines, however long */
	while ((n = getline(&line, &cap, f)) > 0)
		fprintf(stderr, "[%c %d] %s%s", s->label, rep + 1, line,
			line[n - 1] == '\n' ? "" : "\n");
	free(line);
	fclose(f);
	if (ftruncate(s->out_fd, 0))
		return;
	lseek(s->out_fd, 0, SEEK_SET);
}

/* One run of the pair: both sides set up, started together, reaped. */
static int compare_once(struct run_opts *o, char **cmd, int rep,
			double (*figs)[NR_FIGURES])
{
	int go[2], i, ret = 0;
	double start;

	for (i = 0; i < 2; i++) {
		ret = side_setup(&o->sides[i], o->mem, o->swp);
		if (ret) {
			if (i)
				side_teardown(&o->sides[0]);
			return ret;
		}
	}
	if (pipe2(go, O_CLOEXEC)) {
		ret = fail(EXIT_FAILURE_OTHER, "pipe: %s", strerror(errno));
		goto out;
	}
	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < 2 && !ret; i++) {
		ret = side_spawn(&o->sides[i], cmd, go[0], go[1], rep);
		if (ret && i) {
			close(go[1]);
			kill(o->sides[0].pid, SIGKILL);
			waitpid(o->sides[0].pid, NULL, 0);
		}
	}
	close(go[0]);
	if (!ret) {
		start = monotonic_s();
		close(go[1]);
		wait_sides(o->sides, 2, start);
		for (i = 0; i < 2; i++) {
			side_figures(&o->sides[i], figs[i]);
			dump_output(&o->sides[i], rep);
		}
	}
out:
	for (i = 0; i < 2; i++)
		side_teardown(&o->sides[i]);
	return ret;
}

static void format_value(enum figure f, double v, char *buf, size_t len)
{
	if (f == FIG_WALL || f == FIG_PSI_SOME || f == FIG_PSI_FULL)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.0f", v);
}

static void format_summary(enum figure f, struct summary s, int n, char *buf,
			   size_t len)
{
	char med[32], lo[32], hi[32];

	format_value(f, s.median, med, sizeof(med));
	if (n == 1) {
		snprintf(buf, len, "%s", med);
		return;
	}
	format_value(f, s.min, lo, sizeof(lo));
	format_value(f, s.max, hi, sizeof(hi));
	snprintf(buf, len, "%s [%s..%s]", med, lo, hi);
}

static const char *side_name(const struct side *s)
{
	return is_stock(s) ? "none (stock)" : s->policy;
}

static void print_table(const struct run_opts *o, double (*figs)[2][NR_FIGURES])
{
	char a[112], b[112], head[2][96];
	double va[1000], vb[1000];
	struct summary sa, sb;
	int f, r, n = o->repeat;

	snprintf(head[0], sizeof(head[0]), "A: %s", side_name(&o->sides[0]));
	snprintf(head[1], sizeof(head[1]), "B: %s", side_name(&o->sides[1]));
	printf("%-18s %-30s %-30s %s\n", n > 1 ? "median [range]" : "figure",
	       head[0], head[1], "B/A");
	for (f = 0; f < NR_FIGURES; f++) {
		for (r = 0; r < n; r++) {
			va[r] = figs[r][0][f];
			vb[r] = figs[r][1][f];
		}
		sa = summarize(va, n);
		sb = summarize(vb, n);
		format_summary(f, sa, n, a, sizeof(a));
		format_summary(f, sb, n, b, sizeof(b));
		printf("%-18s %-30s %-30s ", figure_names[f], a, b);
		if (sa.median > 0 && f != FIG_STATUS)
			printf("%.3f\n", sb.median / sa.median);
		else
			printf("-\n");
	}
	if (n > 1)
		printf("(%d runs of each side, side by side)\n", n);
}

/* Into @j, side @side of the comparison: its policy, runs and summary. */
static void show_side(const struct run_opts *o, int side,
		      double (*figs)[2][NR_FIGURES], struct json_object *j)
{
	struct json_object *runs, *run, *med, *one;
	struct summary sum;
	double v[1000];
	int f, r;

	jw_string(j, "policy", o->sides[side].policy);
	runs = jw_array(j, "runs");
	for (r = 0; r < o->repeat; r++) {
		run = jw_object(runs, NULL);
		for (f = 0; f < NR_FIGURES; f++)
			jw_double(run, figure_names[f], figs[r][side][f]);
	}
	med = jw_object(j, "summary");
	for (f = 0; f < NR_FIGURES; f++) {
		for (r = 0; r < o->repeat; r++)
			v[r] = figs[r][side][f];
		sum = summarize(v, o->repeat);
		one = jw_object(med, figure_names[f]);
		jw_double(one, "median", sum.median);
		jw_double(one, "min", sum.min);
		jw_double(one, "max", sum.max);
	}
}

/*
 * The printer of a comparison: the table side by side, or in JSON every
 * run of each side and its summary.
 */
static void show_compare(const struct run_opts *o, char **cmd,
			 double (*figs)[2][NR_FIGURES], struct json_object *j)
{
	struct json_object *sides;

	if (!j) {
		print_table(o, figs);
		return;
	}
	show_command(cmd, j);
	jw_int(j, "repeat", o->repeat);
	jw_string(j, "memory_max", o->mem);
	jw_string(j, "swap_max", o->swp);
	sides = jw_object(j, "sides");
	show_side(o, 0, figs, jw_object(sides, "A"));
	show_side(o, 1, figs, jw_object(sides, "B"));
}

int cmd_compare(int argc, char **argv)
{
	double(*figs)[2][NR_FIGURES];
	struct run_opts o = {};
	const struct opt opts[] = {
		OPT_FN("policy", 'p', add_policy, &o),
		OPT_FN("set", 's', add_side_set, &o),
		OPT("memory-max", 'm', OPT_VALUE, &o.mem),
		OPT("swap-max", 'w', OPT_VALUE, &o.swp),
		OPT("repeat", 'r', OPT_VALUE, &o.repeat_arg),
		{},
	};
	int i, r, ret, failed = 0;
	char **cmd;

	ret = parse_run_opts(argc, argv, opts, compare_usage, true, &o);
	if (ret)
		return ret;
	cmd = argv + optind;
	for (i = 0; i < 2; i++) {
		o.sides[i].out_fd =
			memfd_create("mglructl-compare", MFD_CLOEXEC);
		if (o.sides[i].out_fd < 0)
			return fail(EXIT_FAILURE_OTHER, "memfd_create: %s",
				    strerror(errno));
	}
	figs = calloc(o.repeat, sizeof(*figs));
	if (!figs)
		return fail(EXIT_FAILURE_OTHER, "out of memory");
	signal(SIGINT, SIG_IGN);
	for (r = 0; r < o.repeat; r++) {
		ret = compare_once(&o, cmd, r, figs[r]);
		if (ret) {
			free(figs);
			return ret;
		}
		for (i = 0; i < 2; i++)
			failed |= figs[r][i][FIG_STATUS] != 0;
	}
	show_compare(&o, cmd, figs, json_output ? jw_begin() : NULL);
	free(figs);
	if (failed)
		return fail(
			EXIT_COMPARED_FAILED,
			"the command failed on at least one side (see exit_status)");
	return EXIT_OK;
}
