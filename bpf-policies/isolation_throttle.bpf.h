/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MGLRU isolation throttle (linux-mm "throttle MGLRU eviction when
 * isolated folios pile up", v7, seed 003), as a decision the
 * isolation_throttle and combined policies share.
 *
 * Stock 6.12 MGLRU isolates without the classic LRU's too_many_isolated()
 * check: with many reclaimers in a small memcg, most of its folios sit
 * isolated at once and the charge OOMs. Per lruvec and per type, a type is
 * over-isolated when its isolated folios exceed about one generation of
 * the type's folios, on the lists or isolated ((evictable + isolated) /
 * MIN_NR_GENS: isolated folios are off the lists, so the lists alone
 * shrink as the pile-up grows, down to nothing when every folio is
 * isolated). Reclaim goes on with the types that are not over-isolated
 * and still have folios on their lists; only when none is left does it
 * throttle, once, and if that didn't help it stops the pass (no faked
 * progress). An lruvec with no folio at all, listed or isolated, stops at
 * once instead of waiting. kswapd is never
 * throttled. Reclaim without I/O or FS gets a higher threshold so it can't
 * be blocked by the reclaimers it may be holding up (the seed's `>>= 3`,
 * here the knob noio_factor).
 */
#ifndef ISOLATION_THROTTLE_BPF_H
#define ISOLATION_THROTTLE_BPF_H

#include "policy.bpf.h"

MGLRU_EXT_KNOB(__u32, noio_factor, 8, 1, 1024,
	       "threshold multiplier for reclaim that may not do I/O or FS");

static __always_inline bool over_isolated(const struct mglru_ext_ctx *ctx,
					  int type)
{
	__u64 threshold = (ctx->lru[type].evictable + ctx->lru[type].isolated) /
			  MIN_NR_GENS;

	if (!may_io_and_fs(ctx))
		threshold *= noio_factor;
	return ctx->lru[type].isolated > threshold;
}

static __always_inline s32 isolation_throttle(const struct mglru_ext_ctx *ctx)
{
	__u32 present = 0, listed = 0, allowed = 0;
	int type;

	for (type = 0; type < 2; type++) {
		__u32 bit = type == MGLRU_EXT_FILE ? MGLRU_EXT_ALLOW_FILE :
						     MGLRU_EXT_ALLOW_ANON;

		if (type == MGLRU_EXT_ANON && !can_evict_anon(ctx))
			continue;
		if (ctx->lru[type].evictable)
			listed |= bit;
		if (ctx->lru[type].evictable || ctx->lru[type].isolated)
			present |= bit;
		if ((listed & bit) && !over_isolated(ctx, type))
			allowed |= bit;
	}

	/* nothing to evict, even isolated, is not a pile-up: don't wait */
	if (!present)
		return MGLRU_EXT_STOP;
	if (is_kswapd(ctx))
		return listed ? MGLRU_EXT_GO | listed : MGLRU_EXT_STOP;
	if (allowed)
		return MGLRU_EXT_GO | allowed;

	/* the kernel sleeps once, then asks again with ctx->retry set */
	return ctx->retry ? MGLRU_EXT_STOP : MGLRU_EXT_THROTTLE;
}

#endif /* ISOLATION_THROTTLE_BPF_H */
