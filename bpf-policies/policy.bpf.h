/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the mglru_ext policies. Include this, not vmlinux.h
 * and the libbpf headers one by one.
 *
 * Vocabulary (see Documentation/admin-guide/mm/mglru_ext.rst in the
 * kernel series): ctx->lru[type] describes one type; its gen_size[0] is
 * the oldest generation, nr_gens of them are valid; evicted and refaulted
 * count the oldest generation's folios per tier since it became the oldest.
 */
#ifndef MGLRU_EXT_POLICY_BPF_H
#define MGLRU_EXT_POLICY_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "mglru_ext_policy.h"

/*
 * A hook: s32 MGLRU_EXT_OP(my_aging, const struct mglru_ext_ctx *rc) { }
 * The verifier types the argument from the kernel's struct mglru_ext_ops
 * and refuses stores through it. (BPF_PROG's own raw argument is called
 * ctx, hence rc, the reclaim context.) init may sleep: MGLRU_EXT_OP_SLEEPABLE.
 */
#define MGLRU_EXT_OP(name, args...) \
	SEC("struct_ops/" #name) BPF_PROG(name, ##args)
#define MGLRU_EXT_OP_SLEEPABLE(name, args...) \
	SEC("struct_ops.s/" #name) BPF_PROG(name, ##args)

/* The policy: MGLRU_EXT_OPS_DEFINE(my_ops) = { .aging = (void *)my_aging, }; */
#define MGLRU_EXT_OPS_DEFINE(name) \
	SEC(".struct_ops.link") struct mglru_ext_ops name

/* Time in the units of bpf_ktime_get_ns(). */
#define MGLRU_EXT_NS_PER_MS 1000000ULL

/* A choose_type answer: @type, and @tier to evict up to (< 0: stock's). */
static __always_inline __s32 mglru_ext_type_answer(int type, int tier)
{
	return type | (tier >= 0 ? (tier + 1) << MGLRU_EXT_TIER_SHIFT : 0);
}

/* The type of a choose_type answer, such as ctx->stock. */
static __always_inline int mglru_ext_answer_type(__s64 answer)
{
	return answer & MGLRU_EXT_TYPE_MASK;
}

/*
 * A place answer: @age generations below the youngest (past the oldest
 * is the oldest), at the tail of the generation's list with @tail.
 */
static __always_inline __s32 mglru_ext_place_answer(unsigned int age, bool tail)
{
	if (age > MGLRU_EXT_PLACE_AGE_MASK)
		age = MGLRU_EXT_PLACE_AGE_MASK;
	return age | (tail ? MGLRU_EXT_PLACE_TAIL : 0);
}

/* A file of the page cache, as the key of a map of the place hook. */
struct mglru_ext_file_key {
	__u64 ino;
	__u32 dev;
	__u32 pad;
};

#define MGLRU_EXT_FILE_KEY(fc) \
	((struct mglru_ext_file_key){ .ino = (fc)->ino, .dev = (fc)->dev })

/*
 * Whether @fc is a page cache folio of a known file joining the LRU as
 * read (or read again after it was evicted: then it is often active), the
 * ones a file policy places. Left to stock: folios moved to the tail to be
 * evicted soon and the ones eviction puts back, which the kernel keeps no
 * nearer eviction than stock anyway.
 */
static __always_inline bool
mglru_ext_folio_is_read(const struct mglru_ext_folio_ctx *fc)
{
	return fc->type == MGLRU_EXT_FILE && fc->ino &&
	       !(fc->flags &
		 (MGLRU_EXT_FOLIO_RECLAIMING | MGLRU_EXT_FOLIO_PUTBACK));
}

/*
 * ctx->lru[type].field for a type only known at run time. The verifier
 * takes no variable offset into the context, so this is two loads at
 * fixed offsets and a choice between them, never an indexed load.
 */
#define lru_get(ctx, type, field)                                      \
	((type) == MGLRU_EXT_FILE ? (ctx)->lru[MGLRU_EXT_FILE].field : \
				    (ctx)->lru[MGLRU_EXT_ANON].field)

void bpf_mglru_ext_eject(const struct mglru_ext_ctx *ctx,
			 const char *msg__str) __ksym;

static __always_inline bool can_evict_anon(const struct mglru_ext_ctx *ctx)
{
	return ctx->swappiness != 0;
}

/* Folios reclaim may evict now, of the types swappiness allows. */
static __always_inline __u64 evictable_total(const struct mglru_ext_ctx *ctx)
{
	__u64 total = ctx->lru[MGLRU_EXT_FILE].evictable;

	if (can_evict_anon(ctx))
		total += ctx->lru[MGLRU_EXT_ANON].evictable;
	return total;
}

/* Eviction needs a generation older than the MIN_NR_GENS youngest. */
static __always_inline bool eviction_viable(const struct mglru_ext_ctx *ctx)
{
	if (ctx->lru[MGLRU_EXT_FILE].nr_gens <= MGLRU_EXT_MIN_NR_GENS)
		return false;
	if (can_evict_anon(ctx) &&
	    ctx->lru[MGLRU_EXT_ANON].nr_gens <= MGLRU_EXT_MIN_NR_GENS)
		return false;
	return true;
}

static __always_inline bool is_kswapd(const struct mglru_ext_ctx *ctx)
{
	return ctx->flags & MGLRU_EXT_KSWAPD;
}

static __always_inline bool may_io_and_fs(const struct mglru_ext_ctx *ctx)
{
	return (ctx->flags & (MGLRU_EXT_MAY_IO | MGLRU_EXT_MAY_FS)) ==
	       (MGLRU_EXT_MAY_IO | MGLRU_EXT_MAY_FS);
}

/* Sum of a per-tier counter of the oldest generation. */
static __always_inline __u64 sum_tiers(const __u64 *counts)
{
	__u64 sum = 0;
	int tier;

	for (tier = 0; tier < MGLRU_EXT_NR_TIERS; tier++)
		sum += counts[tier];
	return sum;
}

char LICENSE[] SEC("license") = "GPL";

#endif /* MGLRU_EXT_POLICY_BPF_H */
