// SPDX-License-Identifier: GPL-2.0
/*
 * thrash_aging: age when eviction only recycles the oldest generation.
 *
 * What it decides: when the page cache's oldest generation thrashes (over
 * a window of window_ms, min_evictions or more file folios evicted from
 * it, refault_pct percent of them refaulted), it collapses every
 * generation that existed then into the oldest one: it ages, asking for
 * MGLRU_EXT_AGE_FOLD_HEAD, until the oldest generation's sequence number
 * reaches the youngest one's at detection. Then it holds: no more thrash
 * aging until eviction is through the collapsed generation (hold_max_ms
 * at most), and while holding, batches of that type evict regardless of
 * tier. At most one thrash aging per min_interval_ms per memcg.
 *
 * Why: page cache faulted through an MADV_RANDOM mapping lands in the
 * oldest generation, and so do its refaults. Stock MGLRU ages only when it
 * runs low on generations, which never happens here: eviction keeps
 * recycling the oldest generation while a cold file read once sits a
 * generation higher, is never evicted, and keeps the readers' working set
 * out of memory for good (seed 001, "MADV_RANDOM page cache never ages
 * and thrashes the oldest generation"). After the collapse the refaults
 * land above it, where the working set builds up again, while eviction
 * works through the collapsed generation. FOLD_HEAD puts the folded
 * folios at the head of the youngest generation, so the cold file, which
 * entered it last, is evicted first; a stock fold puts them at the tail,
 * behind the readers' older pages. Evicting regardless of tier matters
 * because the refault feedback protects the higher tiers, where the
 * readers' refaulted pages and a file read twice both land.
 *
 * The rate is judged over a window, not over the generation's life: a
 * cold read evicts many folios before the refaults start, and a ratio over
 * the whole generation would cross the threshold much later. A quiet
 * memcg evicts nothing and never triggers it.
 *
 * When to use it: readers whose page cache never ages (MADV_RANDOM
 * mappings) beside files read once. Not for anon working sets that do
 * not fit.
 */
#ifndef THRASH_AGING_BPF_C
#define THRASH_AGING_BPF_C

#include "policy.bpf.h"

MGLRU_EXT_KNOB(
	__u32, refault_pct, 50, 1, 100,
	"refaults, as a percentage of evictions from the oldest generation in a window, that mean thrashing");
MGLRU_EXT_KNOB(
	__u64, min_evictions, 256, 1, 1000000000,
	"evictions from the oldest generation in a window before thrashing is judged");
MGLRU_EXT_KNOB(
	__u32, window_ms, 100, 10, 600000,
	"length of the window the eviction and refault rates are taken over");
MGLRU_EXT_KNOB(__u32, min_interval_ms, 100, 0, 600000,
	       "least time between two thrash-triggered agings of a memcg");
MGLRU_EXT_KNOB(
	__u32, hold_max_ms, 2000, 100, 600000,
	"longest hold on a collapsed generation: after it, thrashing is judged again");
MGLRU_EXT_KNOB(
	__u32, collapse_check_windows, 20, 0, 1000,
	"windows after a collapse in which a larger generation above it means a read escaped it, and it is redone");

/*
 * Per memcg: the window being measured and the last thrash aging. The
 * reclaimers of a memcg may race on it; a lost update only moves a window.
 */
struct thrash_window {
	__u64 start_ns;
	__u64 last_aged_ns;
	/* collapsing: age while the oldest generation of burst_type is older */
	__u64 burst_seq;
	/* collapsed: no thrash aging while hold_seq is the oldest generation */
	__u64 hold_seq;
	__u32 burst_type;
	__u32 holding;
	__u64 hold_ns;
	__u64 min_seq[2];
	__u64 evicted[2];
	__u64 refaulted[2];
	__u64 max_seq;
	__u64 youngest[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64); /* cgroup id */
	__type(value, struct thrash_window);
} thrash_windows SEC(".maps");

/* Thrash episodes and the agings they took, for `bpftool map dump`. */
__u64 thrash_bursts;
__u64 thrash_agings;
__u64 thrash_recollapses;

/* The size of the youngest generation (constant offsets for the verifier) */
static __always_inline __u64 youngest_size(const struct mglru_ext_lru *lru)
{
	switch (lru->nr_gens) {
	case 4:
		return lru->gen_size[3];
	case 3:
		return lru->gen_size[2];
	case 2:
		return lru->gen_size[1];
	default:
		return lru->gen_size[0];
	}
}

static __always_inline void window_start(struct thrash_window *w,
					 const struct mglru_ext_ctx *ctx,
					 __u64 now)
{
	int type;

	w->start_ns = now;
	w->max_seq = ctx->max_seq;
	for (type = 0; type < 2; type++) {
		w->youngest[type] = youngest_size(&ctx->lru[type]);
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

	__u64 young = youngest_size(&ctx->lru[type]);

	if (ctx->lru[type].min_seq != w->min_seq[type] ||
	    ctx->max_seq != w->max_seq)
		return false;
	/*
	 * Whatever still streams into the youngest generation (a cold read
	 * through a mapping with recency) would land above the collapsed
	 * one and outlive the readers' pages: judge once it has stopped.
	 */
	if (young > w->youngest[type] &&
	    (young - w->youngest[type]) * 4 > evicted)
		return false;
	return evicted >= min_evictions &&
	       refaulted * 100 >= evicted * refault_pct;
}

/*
 * The generation above the collapsed one outgrew it: a read lifted folios.
 * A read still going on when the collapse comes escapes it: the
 * collapse's agings walk the page tables, and a file read a second time
 * through a mapping with recency has young PTEs, so the walk lifts it into
 * the generation above the collapsed one. For the first
 * collapse_check_windows windows of a hold, that is collapsed once more.
 */
static __always_inline bool collapse_escaped(const struct mglru_ext_ctx *ctx,
					     int type)
{
	return lru_get(ctx, type, gen_size[1]) >
	       lru_get(ctx, type, gen_size[0]);
}

static __always_inline s32
thrash_aging_decide_aging(const struct mglru_ext_ctx *ctx)
{
	__u64 now = bpf_ktime_get_ns(), key = ctx->cgroup_id;
	struct thrash_window *w, fresh = {};
	__u64 oldest, check_ns;
	int type;

	if (ctx->stock == MGLRU_EXT_AGE_NOW)
		return ctx->stock;

	w = bpf_map_lookup_elem(&thrash_windows, &key);
	if (!w) {
		window_start(&fresh, ctx, now);
		bpf_map_update_elem(&thrash_windows, &key, &fresh, BPF_ANY);
		return ctx->stock;
	}

	oldest = lru_get(ctx, w->burst_type, min_seq);
	if (w->burst_seq) {
		if (oldest < w->burst_seq) {
			__sync_fetch_and_add(&thrash_agings, 1);
			return MGLRU_EXT_AGE_FOLD_HEAD;
		}
		/* collapsed: hold until eviction is through it */
		w->hold_seq = w->burst_seq;
		w->holding = 1;
		w->hold_ns = now;
		w->burst_seq = 0;
		window_start(w, ctx, now);
	}
	/*
	 * Hold until eviction is through the collapsed generation, for
	 * hold_max_ms at most: with four generations the kernel puts a
	 * faulted file folio that is neither workingset nor referenced in
	 * the oldest one (lru_gen_folio_seq()), so when the collapse came
	 * while a cold read was still going on, the readers' refaults refill
	 * the collapsed generation as fast as it is evicted. After the hold
	 * thrashing is judged again, and a second collapse takes the cold
	 * file with it.
	 */
	if (w->holding && oldest <= w->hold_seq &&
	    now - w->hold_ns < (__u64)hold_max_ms * MGLRU_EXT_NS_PER_MS) {
		if (now - w->start_ns < window_ms * MGLRU_EXT_NS_PER_MS)
			return ctx->stock;
		window_start(w, ctx, now);
		check_ns = collapse_check_windows * window_ms *
			   MGLRU_EXT_NS_PER_MS;
		if (now - w->hold_ns >= check_ns ||
		    !collapse_escaped(ctx, w->burst_type))
			return ctx->stock;
		/* collapse again, into what is the youngest generation now */
		w->holding = 0;
		w->burst_seq = ctx->max_seq;
		w->last_aged_ns = now;
		__sync_fetch_and_add(&thrash_recollapses, 1);
		__sync_fetch_and_add(&thrash_agings, 1);
		return MGLRU_EXT_AGE_FOLD_HEAD;
	}
	w->holding = 0;

	if (now - w->start_ns < window_ms * MGLRU_EXT_NS_PER_MS)
		return ctx->stock;

	/*
	 * Only the page cache is judged: an anon set whose oldest generation
	 * thrashes does not fit, and no order of eviction helps it.
	 */
	type = -1;
	if (type_thrashed(w, ctx, MGLRU_EXT_FILE))
		type = MGLRU_EXT_FILE;
	window_start(w, ctx, now);
	if (type < 0 ||
	    now - w->last_aged_ns < min_interval_ms * MGLRU_EXT_NS_PER_MS)
		return ctx->stock;

	w->last_aged_ns = now;
	w->burst_type = type;
	w->burst_seq = ctx->max_seq;
	__sync_fetch_and_add(&thrash_bursts, 1);
	__sync_fetch_and_add(&thrash_agings, 1);
	return MGLRU_EXT_AGE_FOLD_HEAD;
}

/*
 * Type choice while holding: evict the collapsed generation regardless of
 * tier (evicting up to the highest tier protects none).
 */
static __always_inline s32
thrash_aging_decide_choose_type(const struct mglru_ext_ctx *ctx)
{
	__u64 key = ctx->cgroup_id, oldest;
	struct thrash_window *w;
	int type = mglru_ext_answer_type(ctx->stock);

	w = bpf_map_lookup_elem(&thrash_windows, &key);
	if (!w || !w->holding || type != (int)w->burst_type)
		return ctx->stock;
	oldest = lru_get(ctx, type, min_seq);
	if (oldest > w->hold_seq)
		return ctx->stock;
	return mglru_ext_type_answer(type, MGLRU_EXT_NR_TIERS - 1);
}

/* The policy itself, unless another includes this file for its decisions */
#ifndef THRASH_AGING_DECISIONS_ONLY

MGLRU_EXT_POLICY_DESC(
	"age when the oldest generation thrashes (its refaults keep pace with its evictions)");

s32 MGLRU_EXT_OP(thrash_aging_aging, const struct mglru_ext_ctx *rc)
{
	return thrash_aging_decide_aging(rc);
}

s32 MGLRU_EXT_OP(thrash_aging_choose_type, const struct mglru_ext_ctx *rc)
{
	return thrash_aging_decide_choose_type(rc);
}

MGLRU_EXT_OPS_DEFINE(thrash_aging_ops) = {
	.choose_type = (void *)thrash_aging_choose_type,
	.aging = (void *)thrash_aging_aging,
	.name = "thrash_aging",
};

#endif /* THRASH_AGING_DECISIONS_ONLY */
#endif /* THRASH_AGING_BPF_C */
