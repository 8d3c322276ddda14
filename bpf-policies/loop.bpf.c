// SPDX-License-Identifier: GPL-2.0
/*
 * loop: for repeated passes over more page cache than the memcg holds,
 * keep a fixed part of it cached and let the rest go first.
 *
 * What it decides: where a page cache folio joins the generations (the
 * place hook). The first `keep_mb` MiB of file pages the memcg reads are
 * the kept part, remembered as a prefix of each file (its first pages,
 * as far as the budget went when the file was read); a folio of the kept
 * part joins the youngest generation, any other file folio the tail of
 * the oldest, where eviction takes it first. So eviction takes what was
 * read last, as MRU does, and the kept part outlives every pass.
 *
 * Why: a loop over data larger than memory is LRU's worst case. Stock
 * evicts in the order folios came, so each pass evicts what the pass will
 * need next, and every read of every pass goes to the disk. Keeping a
 * fixed part cached serves that part from memory on every pass after the
 * first (cache_ext's MRU policy on ripgrep searching a source tree in a
 * memcg 70% of its size).
 *
 * When to use it: a memcg that reads the same set of files over and over
 * in the same order (a search over a tree, a batch job over a dataset)
 * and cannot hold them all. Set `keep_mb` to about three quarters of the
 * memcg's memory.max: what the memcg needs besides the kept part (its
 * anon memory, the part of the pass being read) must fit in the rest, or
 * the kept part is evicted too and reclaim does more work than stock.
 * Not for a memcg whose working set changes: the kept part is decided
 * once, by what was read first, until the policy is detached. Anon folios
 * and folios eviction puts back are stock's.
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"a fixed part of repeatedly read page cache stays, the rest goes first");

MGLRU_EXT_KNOB(__u32, keep_mb, 64, 1, 1048576,
	       "page cache kept in memory, taken from what is read first (MiB)");

/* the kept prefix of each file: its pages below this offset */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct mglru_ext_file_key);
	__type(value, __u64);
} kept SEC(".maps");

/* pages of the kept part handed out so far */
__u64 kept_pages;

s32 MGLRU_EXT_OP(loop_place, const struct mglru_ext_folio_ctx *fc)
{
	struct mglru_ext_file_key key = MGLRU_EXT_FILE_KEY(fc);
	/* in pages of 4 KiB */
	__u64 budget = (__u64)keep_mb * 256;
	__u64 end = fc->index + fc->nr_pages, *bound;

	if (!mglru_ext_folio_is_read(fc))
		return fc->stock;

	bound = bpf_map_lookup_elem(&kept, &key);
	if (bound && fc->index < *bound)
		return mglru_ext_place_answer(0, false);
	/*
	 * The next pages of a file, or a new file, join the kept part while
	 * the budget lasts. (Concurrent adds may hand out a few folios more
	 * than keep_mb: the count is a bound for placement, not an account.)
	 */
	if (kept_pages + fc->nr_pages <= budget &&
	    (bound ? fc->index == *bound : fc->index == 0)) {
		if (bound)
			*bound = end;
		else if (bpf_map_update_elem(&kept, &key, &end, BPF_NOEXIST))
			goto evict_first;
		__sync_fetch_and_add(&kept_pages, fc->nr_pages);
		return mglru_ext_place_answer(0, false);
	}
evict_first:
	return mglru_ext_place_answer(MGLRU_EXT_PLACE_AGE_MASK, true);
}

MGLRU_EXT_OPS_DEFINE(loop_ops) = {
	.place = (void *)loop_place,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "loop",
};
