/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The MGLRU isolation throttle (linux-mm "throttle MGLRU eviction when
 * isolated folios pile up", v7, seed 003), as a decision the
 * isolation_throttle and combined policies share.
 *
 * Stock 6.12 MGLRU isolates without the classic LRU's too_many_isolated()
 * check: with many reclaimers in a small memcg, most of its folios sit
 * isolated at once and the charge OOMs. Per lruvec and per type, a type is
 * over-isolated when its isolated folios exceed about one generation
 * (evictable / MIN_NR_GENS) divided by noio_factor; reclaim that may not
 * do I/O or FS gets the whole generation, as in the seed, where reclaim
 * with I/O and FS has its evictable count shifted right by 3 (8 = the
 * default noio_factor). Reclaim goes on with the types that are not;
 * only when every evictable type is over-isolated does it throttle, up to
 * max_throttles sleeps of the kernel's 20 ms for the batch, and if that
 * didn't help it stops the pass (no faked progress). An lruvec
 * with nothing evictable stops at once instead of waiting. kswapd is never
 * throttled. Reclaim without I/O or FS gets a higher threshold so it can't
 * be blocked by the reclaimers it may be holding up (the seed's `>>= 3`,
 * here the knob noio_factor).
 *
 * The kernel also asks when a pass found nothing to scan while folios are
 * isolated (ctx->stock is then STOP); see isolation_wait(). That is a
 * state the seed's own patch never reaches a decision in.
 */
#ifndef ISOLATION_THROTTLE_BPF_H
#define ISOLATION_THROTTLE_BPF_H

#include "policy.bpf.h"

MGLRU_EXT_KNOB(
	__u32, noio_factor, 8, 1, 1024,
	"how many times more isolated folios reclaim without I/O or FS may leave before it is throttled");
MGLRU_EXT_KNOB(__u32, max_throttles, 8, 1, 8,
	       "sleeps per batch while over-isolated before the pass ends");
MGLRU_EXT_KNOB(
	__u32, wait_pct, 100, 1, 100000,
	"a pass with nothing to scan waits while a type's isolated folios exceed this percentage of its evictable ones");

static __always_inline bool over_isolated(const struct mglru_ext_ctx *ctx,
					  int type)
{
	__u64 threshold = ctx->lru[type].evictable / MGLRU_EXT_MIN_NR_GENS;

	if (may_io_and_fs(ctx))
		threshold /= noio_factor;
	return ctx->lru[type].isolated > threshold;
}

/*
 * The kernel found nothing to scan (ctx->stock is STOP: stock ends the pass
 * here) while folios of the lruvec are isolated: the budget was 0 because
 * aging is due and another reclaimer holds it, or every folio left is
 * isolated. Stock returns at once and the charge retries into an OOM kill
 * within milliseconds, while the isolated folios are still under
 * writeback. Wait for them, as the classic LRU does, while more of a type
 * is isolated than left on its lists (wait_pct 100). At every priority:
 * stock would reclaim nothing here anyway. The bar is higher than the
 * throttle's below (a generation): waiting that early also slows the
 * light loads stock gets through on its own.
 */
static __always_inline bool piled_up(const struct mglru_ext_ctx *ctx, int type)
{
	return ctx->lru[type].isolated * 100 >
	       ctx->lru[type].evictable * wait_pct;
}

static __always_inline s32 isolation_wait(const struct mglru_ext_ctx *ctx,
					  __u32 usable)
{
	if (is_kswapd(ctx))
		return ctx->stock;
	if (piled_up(ctx, MGLRU_EXT_ANON) || piled_up(ctx, MGLRU_EXT_FILE))
		return ctx->retry < max_throttles ? MGLRU_EXT_THROTTLE :
						    MGLRU_EXT_STOP;
	/* the pile drained while this reclaimer slept: pass again */
	return ctx->retry && usable ? MGLRU_EXT_GO | usable : ctx->stock;
}

static __always_inline s32 isolation_throttle(const struct mglru_ext_ctx *ctx)
{
	__u32 usable = 0, allowed = 0;

	if (ctx->lru[MGLRU_EXT_FILE].evictable)
		usable |= MGLRU_EXT_ALLOW_FILE;
	if (can_evict_anon(ctx) && ctx->lru[MGLRU_EXT_ANON].evictable)
		usable |= MGLRU_EXT_ALLOW_ANON;

	if (ctx->stock == MGLRU_EXT_STOP)
		return isolation_wait(ctx, usable);

	/*
	 * The last priority is the charge's last chance before OOM: decide
	 * as stock there. A restriction to a type that has too little to
	 * give (a few pages of program text next to an over-isolated anon
	 * set) would otherwise end every pass with nothing reclaimed: at 64
	 * threads, where stock survives, that OOM-killed in a second.
	 */
	if (!ctx->priority)
		return ctx->stock;

	/* nothing to evict is not over-isolation: don't wait for it */
	if (!usable)
		return MGLRU_EXT_STOP;
	if (is_kswapd(ctx))
		return MGLRU_EXT_GO | usable;

	if ((usable & MGLRU_EXT_ALLOW_FILE) &&
	    !over_isolated(ctx, MGLRU_EXT_FILE))
		allowed |= MGLRU_EXT_ALLOW_FILE;
	if ((usable & MGLRU_EXT_ALLOW_ANON) &&
	    !over_isolated(ctx, MGLRU_EXT_ANON))
		allowed |= MGLRU_EXT_ALLOW_ANON;
	if (allowed)
		return MGLRU_EXT_GO | allowed;

	/*
	 * The kernel sleeps, then asks again with ctx->retry counting the
	 * sleeps; max_throttles of them and the pass ends.
	 */
	return ctx->retry < max_throttles ? MGLRU_EXT_THROTTLE : MGLRU_EXT_STOP;
}

#endif /* ISOLATION_THROTTLE_BPF_H */
