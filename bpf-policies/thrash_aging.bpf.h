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
 * Where a page faulted in lands depends on the number of generations: with
 * three or fewer it is the oldest one, with four the second oldest. Aging
 * once, from three generations to four, sends the refaults one generation
 * up; eviction then drains the oldest generation for good, and the next
 * one, holding the cold file and the refaults that came after it, becomes
 * the oldest. With three generations again the thrashing resumes there
 * and the next aging sends the refaults up once more, so the cold file is
 * evicted on the way (the baseline's two agings by hand do the same).
 *
 * Thrash aging never ages a type that has all four generations: that
 * would fold the oldest generation into the next one, and a fold reverses
 * the folded folios' order and puts them where eviction starts. Measured
 * in the reproducer: aging on every thrashing window folded 21 times in
 * 70 s, held all 60k file folios in one generation, and every fold put
 * the readers' latest refaults first in line; the cold file was never
 * reached. Without folds, eviction works through the oldest generation.
 *
 * The oldest generation is thrashing when, over a window of window_ms,
 * min_evictions or more folios of a type were evicted from it and
 * refaults made up refault_pct percent of them. The judgement is on the
 * rate in the window, not on the counters since the generation became the
 * oldest: a cold read evicts many folios at once before the refaults
 * start, and a ratio over the whole life of the generation would only
 * reach the threshold half a minute later. At most one aging per
 * min_interval_ms per memcg. A quiet system evicts nothing and never
 * triggers it.
 */
#ifndef THRASH_AGING_BPF_H
#define THRASH_AGING_BPF_H

#include "policy.bpf.h"

MGLRU_EXT_KNOB(
	__u32, refault_pct, 50, 1, 100,
	"refaults, as a percentage of evictions from the oldest generation in a window, that mean thrashing");
MGLRU_EXT_KNOB(
	__u64, min_evictions, 256, 1, 1000000000,
	"evictions from the oldest generation in a window before thrashing is judged");
MGLRU_EXT_KNOB(
	__u32, window_ms, 500, 10, 600000,
	"length of the window the eviction and refault rates are taken over");
MGLRU_EXT_KNOB(__u32, min_interval_ms, 500, 0, 600000,
	       "least time between two thrash-triggered agings of a memcg");

/*
 * Per memcg: the window being measured and the last thrash aging. The
 * reclaimers of a memcg may race on it; a lost update only moves a window.
 */
struct thrash_window {
	__u64 start_ns;
	__u64 last_aged_ns;
	__u64 min_seq[2];
	__u64 evicted[2];
	__u64 refaulted[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64); /* cgroup id */
	__type(value, struct thrash_window);
} thrash_windows SEC(".maps");

/* Thrash agings done, for `bpftool map dump` and the tests. */
__u64 thrash_agings;

static __always_inline void window_start(struct thrash_window *w,
					 const struct mglru_ext_ctx *ctx,
					 __u64 now)
{
	int type;

	w->start_ns = now;
	for (type = 0; type < 2; type++) {
		w->min_seq[type] = ctx->lru[type].min_seq;
		w->evicted[type] = sum_tiers(ctx->lru[type].evicted);
		w->refaulted[type] = sum_tiers(ctx->lru[type].refaulted);
	}
}

/*
 * Whether @type thrashed over the window. The counters belong to the
 * oldest generation: when it changed during the window they are another
 * generation's, and the window says nothing.
 */
static __always_inline bool type_thrashed(const struct thrash_window *w,
					  const struct mglru_ext_ctx *ctx,
					  int type)
{
	__u64 evicted = sum_tiers(ctx->lru[type].evicted) - w->evicted[type];
	__u64 refaulted =
		sum_tiers(ctx->lru[type].refaulted) - w->refaulted[type];

	if (ctx->lru[type].min_seq != w->min_seq[type])
		return false;
	return evicted >= min_evictions &&
	       refaulted * 100 >= evicted * refault_pct;
}

/*
 * Aging adds a generation; with all of them in use it first folds the
 * oldest into the next, which an evictable anon type (with swap) shares.
 */
static __always_inline bool may_age_without_fold(const struct mglru_ext_ctx *ctx,
						 int type)
{
	if (ctx->lru[type].nr_gens >= MGLRU_EXT_NR_GENS)
		return false;
	return type == MGLRU_EXT_ANON || !can_evict_anon(ctx) ||
	       ctx->lru[MGLRU_EXT_ANON].nr_gens < MGLRU_EXT_NR_GENS;
}

static __always_inline s32 thrash_aging(const struct mglru_ext_ctx *ctx)
{
	__u64 now = bpf_ktime_get_ns(), key = ctx->cgroup_id;
	struct thrash_window *w, fresh = {};
	bool thrashed;

	if (ctx->stock == MGLRU_EXT_AGE_NOW)
		return ctx->stock;

	w = bpf_map_lookup_elem(&thrash_windows, &key);
	if (!w) {
		window_start(&fresh, ctx, now);
		bpf_map_update_elem(&thrash_windows, &key, &fresh, BPF_ANY);
		return ctx->stock;
	}
	if (now - w->start_ns < (__u64)window_ms * 1000000)
		return ctx->stock;

	thrashed = may_age_without_fold(ctx, MGLRU_EXT_FILE) &&
		   type_thrashed(w, ctx, MGLRU_EXT_FILE);
	thrashed |= can_evict_anon(ctx) &&
		    may_age_without_fold(ctx, MGLRU_EXT_ANON) &&
		    type_thrashed(w, ctx, MGLRU_EXT_ANON);
	window_start(w, ctx, now);
	if (!thrashed ||
	    now - w->last_aged_ns < (__u64)min_interval_ms * 1000000)
		return ctx->stock;
	w->last_aged_ns = now;
	__sync_fetch_and_add(&thrash_agings, 1);
	return MGLRU_EXT_AGE_NOW;
}

#endif /* THRASH_AGING_BPF_H */
