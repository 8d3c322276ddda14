/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thrash aging (linux-mm RFC "MADV_RANDOM page cache never ages and
 * thrashes the oldest generation", seed 001), as a decision the
 * thrash_aging and combined policies share.
 *
 * Page cache faulted through an MADV_RANDOM mapping lands in the oldest
 * generation, and so do its refaults. Stock MGLRU only ages when it runs
 * low on generations, which never happens here: eviction keeps recycling
 * the oldest generation while a cold file read once sits a generation
 * higher and is never evicted. The working set stays out of memory for
 * good (baseline: ~21k reads/s instead of ~250k, never recovering).
 *
 * The oldest generation is thrashing when, since it became the oldest,
 * min_evictions or more folios were evicted from it and refaults make up
 * refault_pct percent of them. Then age: the oldest generation is folded
 * into the next and a new youngest one starts, so the cold file becomes
 * the oldest and is evicted. At most once per min_interval_ms per memcg,
 * so a thrashing memcg ages at a bounded rate. A quiet system evicts
 * nothing and never triggers it.
 */
#ifndef THRASH_AGING_BPF_H
#define THRASH_AGING_BPF_H

#include "policy.bpf.h"

MGLRU_EXT_KNOB(
	__u32, refault_pct, 50, 1, 100,
	"refaults, as a percentage of evictions from the oldest generation, that mean thrashing");
MGLRU_EXT_KNOB(
	__u64, min_evictions, 1024, 1, 1000000000,
	"evictions from the oldest generation before thrashing is judged");
MGLRU_EXT_KNOB(__u32, min_interval_ms, 1000, 0, 600000,
	       "least time between two thrash-triggered agings of a memcg");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64); /* cgroup id */
	__type(value, __u64); /* when it last aged for thrashing, ns */
} thrash_last_aged SEC(".maps");

static __always_inline bool type_thrashing(const struct mglru_ext_ctx *ctx,
					   int type)
{
	__u64 evicted = sum_tiers(ctx->lru[type].evicted);
	__u64 refaulted = sum_tiers(ctx->lru[type].refaulted);

	return evicted >= min_evictions &&
	       refaulted * 100 >= evicted * refault_pct;
}

static __always_inline bool thrashing(const struct mglru_ext_ctx *ctx)
{
	if (type_thrashing(ctx, MGLRU_EXT_FILE))
		return true;
	return can_evict_anon(ctx) && type_thrashing(ctx, MGLRU_EXT_ANON);
}

static __always_inline s32 thrash_aging(const struct mglru_ext_ctx *ctx)
{
	__u64 now, key = ctx->cgroup_id, *last;

	if (ctx->stock == MGLRU_EXT_AGE_NOW || !thrashing(ctx))
		return ctx->stock;

	now = bpf_ktime_get_ns();
	last = bpf_map_lookup_elem(&thrash_last_aged, &key);
	if (last && now - *last < (__u64)min_interval_ms * 1000000)
		return ctx->stock;
	bpf_map_update_elem(&thrash_last_aged, &key, &now, BPF_ANY);
	return MGLRU_EXT_AGE_NOW;
}

#endif /* THRASH_AGING_BPF_H */
