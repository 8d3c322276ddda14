// SPDX-License-Identifier: GPL-2.0
/*
 * swappiness: make the anon:file split of eviction follow swappiness, as
 * the classic LRU does (linux-mm swappiness regression report on the
 * reclaim loop series, seed 004).
 *
 * MGLRU picks the type to evict with a refault-driven controller that
 * only reads swappiness as a gain: in the seed's pread() workload stock
 * 6.12 never swaps at any swappiness, while the classic LRU's anon share
 * of reclaim climbs with it. Here each memcg gets a target anon share of
 * swappiness / 200, shifted by refault feedback as get_scan_count() does
 * with anon_cost and file_cost: the type whose evicted folios come back
 * more often is pressed less. Batches are then dealt to keep the running
 * split of evicted pages at that target.
 *
 * The split counts pages, not batches: a batch stops after a number of
 * folios scanned, and most anon folios a batch scans were touched since
 * the last aging and are promoted rather than evicted, so an anon batch
 * evicts a few pages where a file batch evicts dozens; where passes are
 * a few small batches, as on 7.3, a split of batches is far from the
 * split of pages. The pages come from the lruvec's per-type eviction
 * counters in the context, which restart when the type's oldest
 * generation goes.
 *
 * Dealing batches is not enough on its own. Page cache read with pread()
 * is added to the oldest generation and recycled there, so stock never
 * ages; the anon pages, added a generation below the youngest and
 * promoted by every aging walk, all sit in the youngest generation, and
 * the oldest anon generation is empty. A batch dealt to anon then scans
 * nothing and falls back to file. So when anon is owed a batch and its
 * oldest generation is empty, the policy ages the memcg (at most once per
 * min_aging_interval_ms): two or three agings bring the anon pages not
 * touched since the previous walk down to the oldest generation, where
 * eviction finds them in walk order, as the classic LRU finds its
 * inactive anon pages. The same holds the other way: once file is down to
 * MIN_NR_GENS generations (stock only ages on anon's count) a file batch
 * falls back to anon, so a file batch with nothing to evict asks for
 * aging too.
 *
 * Knobs: feedback_permille, how much a fully refaulting type's pressure is
 * reduced (0 ignores refaults: the split is swappiness alone);
 * min_aging_interval_ms, the least time between two agings the policy asks
 * for (0: never ages, the split only deals what the generations offer).
 * The limit is in time, so it must be short next to how long the memcg
 * takes to evict a generation, or starved anon batches fall back to file
 * and the share stops following swappiness (docs/results.md, the
 * swappiness section).
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"anon:file eviction split proportional to swappiness, shifted by refaults");

MGLRU_EXT_KNOB(__u32, feedback_permille, 1000, 0, 10000,
	       "weight of refault feedback in the split (0: swappiness alone)");

MGLRU_EXT_KNOB(
	__u32, min_aging_interval_ms, 10, 0, 600000,
	"least time between two agings for a type owed a batch with nothing to evict (0: never)");

/* pages of history the split keeps: 256 MiB of 4 KiB pages */
#define SPLIT_HISTORY_PAGES (1 << 16)

struct split {
	/* pages evicted of each type, as the split has counted them */
	__u64 pages[2];
	/* the eviction counter of each type when last read, and its min_seq */
	__u64 seen_evicted[2];
	__u64 seen_min_seq[2];
	/* a type was owed a batch but had no generation to evict from */
	__u32 starved;
	__u64 last_aged_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64); /* cgroup id */
	__type(value, struct split);
} splits SEC(".maps");

/* How often the evicted folios of a type come back, per mille. */
static __always_inline __u64 refault_permille(const struct mglru_ext_ctx *ctx,
					      int type)
{
	__u64 refaulted = sum_tiers(ctx->lru[type].refaulted) +
			  sum_tiers(ctx->lru[type].avg_refaulted);
	__u64 total = sum_tiers(ctx->lru[type].evicted) +
		      sum_tiers(ctx->lru[type].avg_total);

	if (refaulted > total)
		refaulted = total;
	return refaulted * 1000 / (total + 1);
}

/* A batch of the type would find folios in its oldest generation. */
static __always_inline bool has_oldest(const struct mglru_ext_ctx *ctx,
				       int type)
{
	return ctx->lru[type].nr_gens > MGLRU_EXT_MIN_NR_GENS &&
	       ctx->lru[type].gen_size[0] > 0;
}

/*
 * Add what each type evicted since the last look: the counter is of the
 * type's oldest generation and starts again from 0 when it goes.
 */
static __always_inline void count_evicted(struct split *split,
					  const struct mglru_ext_ctx *ctx)
{
	int type;

	for (type = 0; type < 2; type++) {
		__u64 now = sum_tiers(ctx->lru[type].evicted);
		__u64 seen = split->seen_evicted[type];

		if (ctx->lru[type].min_seq == split->seen_min_seq[type] &&
		    now >= seen)
			split->pages[type] += now - seen;
		else
			split->pages[type] += now;
		split->seen_evicted[type] = now;
		split->seen_min_seq[type] = ctx->lru[type].min_seq;
	}
}

static __always_inline struct split *split_of(const struct mglru_ext_ctx *ctx)
{
	struct split zero = {}, *split;
	__u64 key = ctx->cgroup_id;

	split = bpf_map_lookup_elem(&splits, &key);
	if (split)
		return split;
	bpf_map_update_elem(&splits, &key, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&splits, &key);
}

s32 MGLRU_EXT_OP(swappiness_choose_type, const struct mglru_ext_ctx *rc)
{
	__u64 anon_w, file_w, anon_n, total_n;
	struct split *split;
	int type;

	/*
	 * both types must have folios for there to be a split, and reclaim
	 * must be for both (above MAX_SWAPPINESS it is for anon only)
	 */
	if (!rc->lru[MGLRU_EXT_ANON].evictable || !can_evict_anon(rc) ||
	    !rc->lru[MGLRU_EXT_FILE].evictable ||
	    rc->swappiness > MGLRU_EXT_MAX_SWAPPINESS)
		return rc->stock;

	/* refaults of one type push pressure toward the other */
	anon_w = rc->swappiness * (1000 + refault_permille(rc, MGLRU_EXT_FILE) *
						  feedback_permille / 1000);
	file_w = (MGLRU_EXT_MAX_SWAPPINESS - rc->swappiness) *
		 (1000 + refault_permille(rc, MGLRU_EXT_ANON) *
				 feedback_permille / 1000);

	split = split_of(rc);
	if (!split)
		return rc->stock;

	/* evict anon while its share of pages is below its target share */
	count_evicted(split, rc);
	anon_n = split->pages[MGLRU_EXT_ANON];
	total_n = anon_n + split->pages[MGLRU_EXT_FILE];
	type = anon_n * (anon_w + file_w) <= total_n * anon_w ? MGLRU_EXT_ANON :
								MGLRU_EXT_FILE;
	/* owed a batch with nothing to give: the other type now, then age */
	if (!has_oldest(rc, type)) {
		split->starved = 1;
		type = !type;
	}

	/* forget old history so the split follows swappiness changes */
	if (total_n > SPLIT_HISTORY_PAGES) {
		split->pages[MGLRU_EXT_ANON] /= 2;
		split->pages[MGLRU_EXT_FILE] /= 2;
	}
	return type;
}

/* Age when the type owed a batch had no generation to evict from. */
s32 MGLRU_EXT_OP(swappiness_aging, const struct mglru_ext_ctx *rc)
{
	__u64 now = bpf_ktime_get_ns();
	struct split *split;

	if (!min_aging_interval_ms || !can_evict_anon(rc) ||
	    !rc->lru[MGLRU_EXT_ANON].evictable ||
	    (has_oldest(rc, MGLRU_EXT_ANON) && has_oldest(rc, MGLRU_EXT_FILE)))
		return rc->stock;
	split = split_of(rc);
	if (!split || !split->starved ||
	    now - split->last_aged_ns <
		    min_aging_interval_ms * MGLRU_EXT_NS_PER_MS)
		return rc->stock;

	split->starved = 0;
	split->last_aged_ns = now;
	return MGLRU_EXT_AGE_NOW;
}

MGLRU_EXT_OPS_DEFINE(swappiness_ops) = {
	.choose_type = (void *)swappiness_choose_type,
	.aging = (void *)swappiness_aging,
	.name = "swappiness",
};
