// SPDX-License-Identifier: GPL-2.0
/* The config file of apply and daemon; the format is in config.h. */
#define _GNU_SOURCE
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <ini.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "policy.h"

/* One token of a glob: a set of characters, or '*'. */
struct token {
	bool star;
	uint8_t set[32]; /* bit per byte value it can match */
};

static void set_add(struct token *t, unsigned char c)
{
	t->set[c / 8] |= 1 << (c % 8);
}

/*
 * Tokenize @glob as fnmatch(3) with FNM_PATHNAME reads it. Returns the
 * number of tokens or -1 with *why set.
 */
static int tokenize(const char *glob, struct token *out, int max,
		    const char **why)
{
	const unsigned char *p = (const unsigned char *)glob;
	int n = 0, c;

	for (; *p; p++) {
		struct token *t = &out[n];
		bool neg = false;
		const unsigned char *start;

		if (n == max) {
			*why = "pattern too long";
			return -1;
		}
		memset(t, 0, sizeof(*t));
		n++;
		if (*p == '*') {
			t->star = true;
		} else if (*p == '?') {
			memset(t->set, 0xff, sizeof(t->set));
		} else if (*p == '\\') {
			if (!p[1]) {
				*why = "pattern ends in '\\'";
				return -1;
			}
			set_add(t, *++p);
		} else if (*p == '[') {
			start = ++p;
			if (*p == '!' || *p == '^') {
				neg = true;
				start = ++p;
			}
			for (; *p && (*p != ']' || p == start); p++) {
				if (*p == '[' && p[1] == ':') {
					*why = "character classes such as [:alpha:] are not supported";
					return -1;
				}
				if (p[1] == '-' && p[2] && p[2] != ']') {
					for (c = p[0]; c <= p[2]; c++)
						set_add(t, c);
					p += 2;
				} else {
					set_add(t, *p);
				}
			}
			if (!*p) {
				*why = "'[' without its ']'";
				return -1;
			}
			if (neg)
				for (c = 0; c < 32; c++)
					t->set[c] = ~t->set[c];
		} else {
			set_add(t, *p);
		}
		/* with FNM_PATHNAME only a literal '/' matches '/' */
		if (!t->star && *p != '/')
			t->set['/' / 8] &= ~(1 << ('/' % 8));
	}
	return n;
}

const char *glob_error(const char *glob)
{
	static struct token tokens[1024];
	const char *why = NULL, *p;
	size_t n = strlen(glob);

	if (!n)
		return "empty pattern";
	if (glob[n - 1] == '/')
		return "pattern ends in '/'";
	if (strstr(glob, "//"))
		return "pattern has an empty path component";
	for (p = glob; p; p = strchr(p, '/')) {
		p += *p == '/';
		if (!strncmp(p, "..", 2) && (!p[2] || p[2] == '/'))
			return "pattern has a '..' component";
		if (p[0] == '.' && (!p[1] || p[1] == '/'))
			return "pattern has a '.' component";
	}
	if (tokenize(glob, tokens, 1024, &why) < 0)
		return why;
	return NULL;
}

static bool tokens_meet(const struct token *a, const struct token *b)
{
	int i;

	for (i = 0; i < 32; i++)
		if (a->set[i] & b->set[i])
			return true;
	return false;
}

/* Can token @t match a character other than '/' (what '*' consumes)? */
static bool takes_non_slash(const struct token *t)
{
	struct token any;

	memset(any.set, 0xff, sizeof(any.set));
	any.set['/' / 8] &= ~(1 << ('/' % 8));
	return t->star || tokens_meet(t, &any);
}

/* memo: 0 unknown, 1 no, 2 yes */
static bool overlap(const struct token *a, int n, const struct token *b, int m,
		    int i, int j, uint8_t *memo)
{
	uint8_t *seen = &memo[i * (m + 1) + j];
	bool r = false;

	if (*seen)
		return *seen == 2;
	if (i == n && j == m)
		r = true;
	else if (i < n && a[i].star)
		r = overlap(a, n, b, m, i + 1, j, memo) ||
		    (j < m && takes_non_slash(&b[j]) &&
		     overlap(a, n, b, m, i, j + 1, memo));
	else if (j < m && b[j].star)
		r = overlap(a, n, b, m, i, j + 1, memo) ||
		    (i < n && takes_non_slash(&a[i]) &&
		     overlap(a, n, b, m, i + 1, j, memo));
	else if (i < n && j < m && tokens_meet(&a[i], &b[j]))
		r = overlap(a, n, b, m, i + 1, j + 1, memo);
	*seen = r ? 2 : 1;
	return r;
}

bool globs_overlap(const char *a, const char *b)
{
	static struct token ta[1024], tb[1024];
	const char *why;
	uint8_t *memo;
	int n, m;
	bool r;

	n = tokenize(a, ta, 1024, &why);
	m = tokenize(b, tb, 1024, &why);
	if (n < 0 || m < 0)
		return false;
	memo = calloc((n + 1) * (m + 1), 1);
	if (!memo)
		return true;
	r = overlap(ta, n, tb, m, 0, 0, memo);
	free(memo);
	return r;
}

const struct config_entry *config_match(const struct config *c, const char *rel)
{
	int i;

	int j;

	for (i = 0; i < c->nr_entries; i++)
		for (j = 0; j < c->entries[i].nr_patterns; j++)
			if (!fnmatch(c->entries[i].patterns[j], rel,
				     FNM_PATHNAME))
				return &c->entries[i];
	return NULL;
}

/* State of one parse: the reader counts lines and notes section headers. */
struct parse {
	struct config *c;
	FILE *f;
	int line;
	int set_lines[MAX_CONFIG_ENTRIES][MAX_SETS];
	int policy_lines[MAX_CONFIG_ENTRIES];
	int err_line;
	char err[512];
};

static void parse_error(struct parse *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void parse_error(struct parse *ps, int line, const char *fmt, ...)
{
	va_list ap;

	if (ps->err_line)
		return;
	ps->err_line = line;
	va_start(ap, fmt);
	vsnprintf(ps->err, sizeof(ps->err), fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static struct config_entry *find_entry(struct config *c, const char *name)
{
	int i;

	for (i = 0; i < c->nr_entries; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	return NULL;
}

/* Reads a line for inih; a section header starts a new entry. */
static char *reader(char *str, int num, void *stream)
{
	struct parse *ps = stream;
	struct config *c = ps->c;
	struct config_entry *e;
	char copy[PATH_MAX + 8], *s, *end;

	if (!fgets(str, num, ps->f))
		return NULL;
	ps->line++;
	snprintf(copy, sizeof(copy), "%s", str);
	s = trim(copy);
	if (*s != '[')
		return str;
	end = strchr(s, ']');
	if (!end)
		return str; /* inih reports it */
	*end = '\0';
	s = trim(s + 1);
	if (find_entry(c, s)) {
		parse_error(ps, ps->line, "section [%s] appears twice", s);
		return str;
	}
	if (c->nr_entries == MAX_CONFIG_ENTRIES) {
		parse_error(ps, ps->line, "more than %d sections",
			    MAX_CONFIG_ENTRIES);
		return str;
	}
	e = &c->entries[c->nr_entries++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", s);
	e->line = ps->line;
	return str;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct parse *ps = user;
	struct config_entry *e;
	int idx;

	e = find_entry(ps->c, section);
	if (!*section || !e) {
		parse_error(ps, ps->line, "'%s' is outside a [section]", name);
		return 0;
	}
	idx = e - ps->c->entries;
	if (!strcmp(name, "match")) {
		const char *why;

		value += *value == '/'; /* "/a/b" and "a/b": one cgroup */
		why = glob_error(value);
		if (why) {
			parse_error(ps, ps->line, "bad pattern '%s': %s", value,
				    why);
			return 0;
		}
		if (e->nr_patterns == MAX_PATTERNS ||
		    strlen(value) >= PATTERN_LEN) {
			parse_error(
				ps, ps->line,
				"at most %d patterns of %d characters in a section",
				MAX_PATTERNS, PATTERN_LEN - 1);
			return 0;
		}
		e->pattern_lines[e->nr_patterns] = ps->line;
		snprintf(e->patterns[e->nr_patterns++], PATTERN_LEN, "%s",
			 value);
		return 1;
	}
	if (!strcmp(name, "policy")) {
		if (e->policy[0]) {
			parse_error(ps, ps->line, "[%s] names its policy twice",
				    e->name);
			return 0;
		}
		if (!*value) {
			parse_error(ps, ps->line, "empty policy");
			return 0;
		}
		snprintf(e->policy, sizeof(e->policy), "%s", value);
		ps->policy_lines[idx] = ps->line;
		return 1;
	}
	if (e->nr_sets == MAX_SETS) {
		parse_error(ps, ps->line, "more than %d knobs in [%s]",
			    MAX_SETS, e->name);
		return 0;
	}
	if ((size_t)snprintf(e->sets[e->nr_sets], SET_LEN, "%s=%s", name,
			     value) >= SET_LEN) {
		parse_error(ps, ps->line, "knob setting too long");
		return 0;
	}
	ps->set_lines[idx][e->nr_sets++] = ps->line;
	return 1;
}

/* FNV-1a, over the object's bytes and then the knob settings. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int hash_entry(struct config_entry *e)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[65536];
	size_t n;
	FILE *f;
	int i;

	f = fopen(e->path, "r");
	if (!f)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), f)))
		h = fnv(h, buf, n);
	fclose(f);
	for (i = 0; i < e->nr_sets; i++)
		h = fnv(h, e->sets[i], strlen(e->sets[i]) + 1);
	snprintf(e->hash, sizeof(e->hash), "%016llx", (unsigned long long)h);
	return 0;
}

static bool same_assignment(const struct config_entry *a,
			    const struct config_entry *b)
{
	return !strcmp(a->hash, b->hash);
}

/* Validate one entry; policy code prints "FILE:LINE: reason" itself. */
static int check_entry(struct parse *ps, struct config_entry *e, int idx)
{
	/* "FILE:LINE", FILE being shorter than PATH_MAX */
	char where[PATH_MAX + 16], rel[PATH_MAX], dir[PATH_MAX];
	struct policy p;
	int i, ret;

	if (!e->nr_patterns) {
		parse_error(ps, e->line, "[%s] has no 'match = PATTERN'",
			    e->name);
		return EXIT_BAD_CONFIG;
	}
	if (!e->policy[0]) {
		parse_error(ps, e->line, "[%s] has no 'policy ='", e->name);
		return EXIT_BAD_CONFIG;
	}
	/* a relative object path is relative to the config file */
	snprintf(dir, sizeof(dir), "%s", ps->c->file); /* it fits */
	if (strchr(e->policy, '/') && e->policy[0] != '/')
		ret = xsnprintf(rel, sizeof(rel), "%s/%s", dirname(dir),
				e->policy);
	else
		ret = xsnprintf(rel, sizeof(rel), "%s", e->policy);
	if (ret) {
		parse_error(ps, ps->policy_lines[idx],
			    "the policy's path is too long (PATH_MAX is %d)",
			    PATH_MAX);
		return EXIT_BAD_CONFIG;
	}

	snprintf(where, sizeof(where), "%s:%d", ps->c->file,
		 ps->policy_lines[idx]);
	fail_where = where;
	ret = policy_locate(rel, e->path, sizeof(e->path));
	if (!ret)
		ret = policy_open(&p, e->path);
	for (i = 0; !ret && i < e->nr_sets; i++) {
		snprintf(where, sizeof(where), "%s:%d", ps->c->file,
			 ps->set_lines[idx][i]);
		ret = policy_set_knob(&p, e->sets[i]);
		if (ret)
			policy_close(&p);
	}
	fail_where = NULL;
	if (ret)
		return EXIT_BAD_CONFIG;
	policy_close(&p);
	if (hash_entry(e)) {
		parse_error(ps, e->line, "cannot read %s", e->path);
		return EXIT_BAD_CONFIG;
	}
	return 0;
}

/* Can a cgroup match both @a and @b, which assign different things? */
static void check_overlap(struct parse *ps, const struct config_entry *a,
			  const struct config_entry *b)
{
	int i, j;

	if (same_assignment(a, b))
		return;
	for (i = 0; i < b->nr_patterns; i++) {
		for (j = 0; j < a->nr_patterns; j++) {
			if (!globs_overlap(a->patterns[j], b->patterns[i]))
				continue;
			parse_error(
				ps, b->pattern_lines[i],
				"'%s' of [%s] and '%s' of [%s] (line %d) can match the same cgroup with different policies",
				b->patterns[i], b->name, a->patterns[j],
				a->name, a->pattern_lines[j]);
			return;
		}
	}
}

int config_load(const char *file, struct config *c)
{
	static struct parse ps;
	int i, j, ret;

	memset(c, 0, sizeof(*c));
	memset(&ps, 0, sizeof(ps));
	if (xsnprintf(c->file, sizeof(c->file), "%s", file))
		return fail_too_long("config file path", file);
	ps.c = c;
	ps.f = fopen(file, "r");
	if (!ps.f) {
		fprintf(stderr, "%s: cannot read the config file: %s\n", file,
			strerror(errno));
		return EXIT_BAD_CONFIG;
	}
	ret = ini_parse_stream(reader, &ps, handler, &ps);
	fclose(ps.f);
	if (ret > 0 && (!ps.err_line || ret < ps.err_line)) {
		fprintf(stderr,
			"%s:%d: syntax error: expected [section], key = value or a comment\n",
			file, ret);
		return EXIT_BAD_CONFIG;
	}
	for (i = 0; !ps.err_line && i < c->nr_entries; i++) {
		ret = check_entry(&ps, &c->entries[i], i);
		if (ret && !ps.err_line)
			return ret; /* the policy code said why */
	}
	for (i = 0; !ps.err_line && i < c->nr_entries; i++)
		for (j = 0; !ps.err_line && j < i; j++)
			check_overlap(&ps, &c->entries[j], &c->entries[i]);
	if (ps.err_line) {
		fprintf(stderr, "%s:%d: %s\n", file, ps.err_line, ps.err);
		return EXIT_BAD_CONFIG;
	}
	return 0;
}
