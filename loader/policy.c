// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "policy.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <libgen.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "log.h"
#include "mglru_ext_policy.h"
#include "parse.h"

/*
 * libbpf's errors in words: it reports its own (LIBBPF_ERRNO__*, from
 * 4000 up) through errno too, which strerror() calls "Unknown error".
 */
static const char *bpf_strerror(int err)
{
	static char buf[128];

	if (err < 0)
		err = -err;
	if (libbpf_strerror(err, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "%s", strerror(err));
	return buf;
}

/*
 * Where the shipped policies are: $MGLRU_POLICY_DIR, else next to the
 * binary: build/bin/mglructl finds build/bpf, an installed
 * PREFIX/sbin/mglructl finds PREFIX/lib/mglru_ext/policies.
 */
const char *policy_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX], *base;
	const char *env = getenv("MGLRU_POLICY_DIR");
	ssize_t n;

	if (env && *env)
		return env;
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "/usr/lib/mglru_ext/policies";
	exe[n] = '\0';
	base = dirname(exe);
	if (!xsnprintf(dir, sizeof(dir), "%s/../bpf", base) &&
	    !access(dir, F_OK))
		return dir;
	if (xsnprintf(dir, sizeof(dir), "%s/../lib/mglru_ext/policies", base))
		snprintf(dir, sizeof(dir), "/usr/lib/mglru_ext/policies");
	return dir;
}

int policy_locate(const char *arg, char *path, size_t len)
{
	size_t n = strlen(arg);

	if (strchr(arg, '/') || (n > 2 && !strcmp(arg + n - 2, ".o"))) {
		if (xsnprintf(path, len, "%s", arg))
			return fail_too_long("policy object path", arg);
		if (!access(path, R_OK))
			return 0;
		if (errno == ENAMETOOLONG)
			return fail_too_long("policy object path", arg);
		return fail(EXIT_BAD_OBJECT, "cannot read policy object %s: %s",
			    arg, strerror(errno));
	}
	if (xsnprintf(path, len, "%s/%s.bpf.o", policy_dir(), arg))
		return fail_too_long("policy object path", path);
	if (access(path, R_OK))
		return fail(EXIT_UNKNOWN_POLICY,
			    "unknown policy '%s' (see 'mglructl list')", arg);
	return 0;
}

/* Read the policy's description and knob docs from their ELF sections. */
static void read_info_sections(struct policy *p, char *knob_docs, size_t len)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int fd;

	knob_docs[0] = knob_docs[1] = '\0';
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(p->path, O_RDONLY);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Shdr shdr;
		const char *name;

		if (!gelf_getshdr(scn, &shdr))
			continue;
		name = elf_strptr(elf, shstrndx, shdr.sh_name);
		data = elf_getdata(scn, NULL);
		if (!name || !data || !data->d_buf || !data->d_size)
			continue;
		if (!strcmp(name, MGLRU_EXT_DESC_SEC)) {
			snprintf(p->desc, sizeof(p->desc), "%.*s",
				 (int)data->d_size, (char *)data->d_buf);
		} else if (!strcmp(name, MGLRU_EXT_KNOBS_SEC)) {
			size_t n = data->d_size < len - 2 ? data->d_size :
							    len - 2;

			/* NUL-separated entries, doubly terminated */
			memcpy(knob_docs, data->d_buf, n);
			knob_docs[n] = knob_docs[n + 1] = '\0';
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

/* "name=min:max:doc" entries, NUL-separated */
static void apply_knob_doc(struct knob *k, const char *docs)
{
	size_t n = strlen(k->name);
	const char *e;

	for (e = docs; *e; e += strlen(e) + 1) {
		const char *min, *max, *doc;

		if (strncmp(e, k->name, n) || e[n] != '=')
			continue;
		min = e + n + 1;
		max = strchr(min, ':');
		doc = max ? strchr(max + 1, ':') : NULL;
		if (!doc)
			return;
		snprintf(k->min, sizeof(k->min), "%.*s", (int)(max - min), min);
		snprintf(k->max, sizeof(k->max), "%.*s", (int)(doc - max - 1),
			 max + 1);
		snprintf(k->doc, sizeof(k->doc), "%s", doc + 1);
		return;
	}
}

/* Strip const, volatile and typedefs. */
static const struct btf_type *resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_const(t) || btf_is_volatile(t) ||
		     btf_is_typedef(t) || btf_is_restrict(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

static void format_value(const struct knob *k, const void *data, char *buf,
			 size_t len)
{
	int64_t s = 0;
	uint64_t u = 0;

	switch (k->size) {
	case 1:
		u = *(const uint8_t *)data;
		s = *(const int8_t *)data;
		break;
	case 2:
		u = *(const uint16_t *)data;
		s = *(const int16_t *)data;
		break;
	case 4:
		u = *(const uint32_t *)data;
		s = *(const int32_t *)data;
		break;
	default:
		u = *(const uint64_t *)data;
		s = (int64_t)u;
	}
	if (k->is_bool)
		snprintf(buf, len, "%s", u ? "true" : "false");
	else if (k->is_signed)
		snprintf(buf, len, "%lld", (long long)s);
	else
		snprintf(buf, len, "%llu", (unsigned long long)u);
}

/* Knobs: the integer variables of the object's .rodata section. */
static int find_knobs(struct policy *p, const char *docs)
{
	struct btf *btf = bpf_object__btf(p->obj);
	const struct btf_var_secinfo *vsi;
	const struct btf_type *sec;
	const void *data;
	size_t size;
	unsigned int i;
	int id;

	if (!p->rodata)
		return 0;
	id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
	if (id < 0)
		return 0;
	sec = btf__type_by_id(btf, id);
	data = bpf_map__initial_value(p->rodata, &size);

	for (i = 0, vsi = btf_var_secinfos(sec); i < btf_vlen(sec);
	     i++, vsi++) {
		const struct btf_type *var = btf__type_by_id(btf, vsi->type);
		const struct btf_type *t = resolve(btf, var->type);
		struct knob *k;

		if (!t || !(btf_is_int(t) || btf_is_enum(t)))
			continue;
		if (p->nr_knobs == MAX_KNOBS)
			break;
		k = &p->knobs[p->nr_knobs++];
		snprintf(k->name, sizeof(k->name), "%s",
			 btf__name_by_offset(btf, var->name_off));
		k->size = t->size;
		k->offset = vsi->offset;
		apply_knob_doc(k, docs);
		if (btf_is_int(t)) {
			k->is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
			k->is_bool = btf_int_encoding(t) & BTF_INT_BOOL;
		} else {
			/* a negative default of an enum knob means "none" */
			k->is_signed = btf_kflag(t) || k->min[0] == '-';
			k->enum_type = t;
		}
		if (data && k->offset + k->size <= size)
			format_value(k, (const char *)data + k->offset, k->dflt,
				     sizeof(k->dflt));
	}
	return 0;
}

int policy_open(struct policy *p, const char *path)
{
	static char knob_docs[8192];
	struct bpf_map *map;
	struct btf *btf;
	const char *base;
	int nr_ops = 0;

	memset(p, 0, sizeof(*p));
	if (xsnprintf(p->path, sizeof(p->path), "%s", path))
		return fail_too_long("policy object path", path);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(p->file_name, sizeof(p->file_name), "%.*s",
		 (int)strcspn(base, "."), base);

	p->obj = bpf_object__open_file(path, NULL);
	if (!p->obj) {
		p->obj = NULL;
		return fail(EXIT_BAD_OBJECT, "%s is not a BPF object: %s", path,
			    bpf_strerror(errno));
	}
	btf = bpf_object__btf(p->obj);

	bpf_object__for_each_map(map, p->obj) {
		const struct btf_type *t;
		const char *tname;

		if (bpf_map__type(map) == BPF_MAP_TYPE_STRUCT_OPS) {
			t = btf ? btf__type_by_id(
					  btf,
					  bpf_map__btf_value_type_id(map)) :
				  NULL;
			tname = t ? btf__name_by_offset(btf, t->name_off) : "";
			if (strcmp(tname, MGLRU_EXT_OPS_TYPE))
				continue;
			p->ops = map;
			nr_ops++;
		} else if (bpf_map__is_internal(map)) {
			/* ".rodata" itself, not ".rodata.str1.1" and the like */
			const char *name = bpf_map__name(map);
			size_t n = strlen(name);

			if (n >= 7 && !strcmp(name + n - 7, ".rodata"))
				p->rodata = map;
		}
	}
	if (nr_ops != 1) {
		policy_close(p);
		return fail(
			EXIT_BAD_OBJECT,
			"%s is not an mglru_ext policy: it needs exactly one struct %s in SEC(\".struct_ops.link\"), it has %d",
			path, MGLRU_EXT_OPS_TYPE, nr_ops);
	}
	/* pinned links need the link flavour of struct_ops */
	bpf_map__set_autoattach(p->ops, false);

	read_info_sections(p, knob_docs, sizeof(knob_docs));
	find_knobs(p, knob_docs);

	/* the .name member of the policy's struct mglru_ext_ops */
	{
		const struct btf_type *t = btf__type_by_id(
			btf, bpf_map__btf_value_type_id(p->ops));
		const struct btf_member *m = btf_members(t);
		size_t size;
		const char *data = bpf_map__initial_value(p->ops, &size);
		unsigned int i;

		for (i = 0; i < btf_vlen(t); i++, m++) {
			if (strcmp(btf__name_by_offset(btf, m->name_off),
				   "name"))
				continue;
			snprintf(p->name, sizeof(p->name), "%s",
				 data + btf_member_bit_offset(t, i) / 8);
		}
		if (!p->name[0])
			snprintf(p->name, sizeof(p->name), "%s", p->file_name);
	}
	return 0;
}

static int knob_named(const void *name, const void *knob)
{
	return strcmp(name, ((const struct knob *)knob)->name);
}

static struct knob *find_knob(struct policy *p, const char *name)
{
	size_t n = p->nr_knobs;

	return lfind(name, p->knobs, &n, sizeof(p->knobs[0]), knob_named);
}

/*
 * NAME or NAME|NAME...: the enumerators of an enum knob's type, or-ed. A
 * name is an enumerator's whole name or its end after an underscore
 * (GO for MGLRU_EXT_GO), if that end is unique.
 */
static int enum_value(const struct policy *p, const struct knob *k,
		      const char *value, int64_t *out)
{
	const struct btf *btf = bpf_object__btf(p->obj);
	const struct btf_enum *e = btf_enum(k->enum_type);
	int nr = btf_vlen(k->enum_type), i;
	char tok[NAME_LEN];

	*out = 0;
	while (*value) {
		size_t n = strcspn(value, "|");
		int exact = -1, suffix = -1, suffixes = 0;

		snprintf(tok, sizeof(tok), "%.*s", (int)n, value);
		value += n + (value[n] == '|');
		for (i = 0; i < nr; i++) {
			const char *name =
				btf__name_by_offset(btf, e[i].name_off);
			size_t len = strlen(name), tlen = strlen(tok);

			if (!strcmp(name, tok))
				exact = i;
			else if (len > tlen && name[len - tlen - 1] == '_' &&
				 !strcmp(name + len - tlen, tok))
				suffix = i, suffixes++;
		}
		if (exact < 0 && suffixes > 1)
			return fail(
				EXIT_BAD_KNOB,
				"knob %s: '%s' names more than one value of enum %s",
				k->name, tok,
				btf__name_by_offset(btf,
						    k->enum_type->name_off));
		if (exact < 0 && suffix < 0)
			return fail(EXIT_BAD_KNOB,
				    "knob %s: enum %s has no value '%s'",
				    k->name,
				    btf__name_by_offset(btf,
							k->enum_type->name_off),
				    tok);
		*out |= (int64_t)e[exact >= 0 ? exact : suffix].val;
	}
	return 0;
}

static void type_limits(const struct knob *k, int64_t *smin, int64_t *smax,
			uint64_t *umax)
{
	unsigned int bits = k->size * 8;

	*umax = bits == 64 ? UINT64_MAX : (1ULL << bits) - 1;
	*smax = bits == 64 ? INT64_MAX : (int64_t)((1ULL << (bits - 1)) - 1);
	*smin = -*smax - 1;
}

int policy_set_knob(struct policy *p, const char *assignment)
{
	char name[NAME_LEN], number[32];
	const char *value;
	struct knob *k;
	int64_t smin, smax, s;
	uint64_t umax, u, umin = 0;
	size_t size;
	char *data;
	bool b;
	int ret;

	if (split_assignment(assignment, name, sizeof(name), &value))
		return fail(EXIT_BAD_KNOB,
			    "bad knob setting '%s': expected KNOB=VALUE",
			    assignment);
	k = find_knob(p, name);
	if (!k)
		return fail(EXIT_BAD_KNOB,
			    "policy %s has no knob '%s' (see 'mglructl list')",
			    p->name, name);

	if (k->enum_type &&
	    (isalpha((unsigned char)value[0]) || value[0] == '_')) {
		int64_t v;

		ret = enum_value(p, k, value, &v);
		if (ret)
			return ret;
		snprintf(number, sizeof(number), "%lld", (long long)v);
		value = number;
	}
	type_limits(k, &smin, &smax, &umax);
	if (k->is_bool) {
		if (parse_bool(value, &b))
			return fail(EXIT_BAD_KNOB,
				    "knob %s takes true or false, not '%s'",
				    name, value);
		u = b;
	} else if (k->is_signed) {
		if (k->min[0])
			parse_s64(k->min, smin, smax, &smin);
		if (k->max[0])
			parse_s64(k->max, smin, smax, &smax);
		ret = parse_s64(value, smin, smax, &s);
		if (ret == -ERANGE)
			return fail(EXIT_BAD_KNOB,
				    "knob %s must be in [%lld, %lld], not %s",
				    name, (long long)smin, (long long)smax,
				    value);
		if (ret)
			return fail(EXIT_BAD_KNOB,
				    "knob %s takes an integer, not '%s'", name,
				    value);
		u = (uint64_t)s;
	} else {
		if (k->min[0])
			parse_u64(k->min, 0, umax, &umin);
		if (k->max[0])
			parse_u64(k->max, 0, umax, &umax);
		ret = parse_u64(value, umin, umax, &u);
		if (ret == -ERANGE)
			return fail(EXIT_BAD_KNOB,
				    "knob %s must be in [%llu, %llu], not %s",
				    name, (unsigned long long)umin,
				    (unsigned long long)umax, value);
		if (ret)
			return fail(
				EXIT_BAD_KNOB,
				"knob %s takes a non-negative integer, not '%s'",
				name, value);
	}

	data = bpf_map__initial_value(p->rodata, &size);
	if (!data || k->offset + k->size > size)
		return fail(EXIT_BAD_KNOB, "knob %s: no room in .rodata", name);
	/* x86 is little-endian: the low bytes come first */
	memcpy(data + k->offset, &u, k->size);
	format_value(k, data + k->offset, k->dflt, sizeof(k->dflt));
	return 0;
}

int policy_set_cgroup(struct policy *p, uint64_t cgroup_id)
{
	struct btf *btf = bpf_object__btf(p->obj);
	const struct btf_type *t =
		btf__type_by_id(btf, bpf_map__btf_value_type_id(p->ops));
	const struct btf_member *m = btf_members(t);
	size_t size;
	char *data = bpf_map__initial_value(p->ops, &size);
	unsigned int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), "cgroup_id"))
			continue;
		memcpy(data + btf_member_bit_offset(t, i) / 8, &cgroup_id,
		       sizeof(cgroup_id));
		return 0;
	}
	return fail(EXIT_BAD_OBJECT, "%s: struct %s has no cgroup_id", p->path,
		    MGLRU_EXT_OPS_TYPE);
}

int policy_load(struct policy *p)
{
	char summary[512];
	int err;

	log_clear();
	err = bpf_object__load(p->obj);
	if (!err)
		return 0;
	if (err == -EPERM)
		return fail(
			EXIT_PERMISSION,
			"loading %s: permission denied (needs CAP_BPF and CAP_SYS_ADMIN)",
			p->name);
	if (log_has_verifier_log()) {
		log_verifier_summary(summary, sizeof(summary));
		return fail(
			EXIT_VERIFIER,
			"the verifier rejected policy %s: %s (full log with -v)",
			p->name, summary);
	}
	return fail(EXIT_FAILURE_OTHER,
		    "loading policy %s failed: %s (details with -v)", p->name,
		    bpf_strerror(err));
}

int policy_attach(struct policy *p, const char *cgroup_desc,
		  struct bpf_link **link)
{
	int err;

	*link = bpf_map__attach_struct_ops(p->ops);
	if (*link)
		return 0;
	err = errno;
	switch (err) {
	case EEXIST:
		return fail(
			EXIT_ALREADY_ATTACHED,
			"a policy is already attached to %s (see 'mglructl status')",
			cgroup_desc);
	case ENOENT:
		return fail(EXIT_BAD_CGROUP, "cgroup %s went away",
			    cgroup_desc);
	case EPERM:
	case EACCES:
		return fail(EXIT_PERMISSION, "attaching %s: permission denied",
			    p->name);
	default:
		return fail(EXIT_REFUSED,
			    "attaching policy %s to %s failed: %s", p->name,
			    cgroup_desc, bpf_strerror(err));
	}
}

void policy_close(struct policy *p)
{
	bpf_object__close(p->obj);
	p->obj = NULL;
}
