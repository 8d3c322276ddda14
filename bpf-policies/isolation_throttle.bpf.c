// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_throttle: throttle MGLRU eviction when isolated folios pile up.
 *
 * What it decides: before each batch, whether to go on (and with which
 * types), throttle, or end the pass. Per lruvec and type, a type is
 * over-isolated when its isolated folios exceed a generation's worth of
 * its evictable ones (evictable / MIN_NR_GENS) divided by noio_factor;
 * reclaim without I/O or FS gets the whole generation, so that it is not
 * blocked by the reclaimers it may be holding up. Reclaim goes on with
 * the types that are not over-isolated; when every evictable type is, it
 * throttles, up to max_throttles of the kernel's 20 ms sleeps a batch,
 * then ends the pass. kswapd is never throttled, and at the last priority
 * the answer is stock's. It also waits in a pass that found nothing to
 * scan while more of a type is isolated than left on its lists
 * (isolation_wait(), wait_pct).
 *
 * Why: MGLRU isolates without the classic LRU's too_many_isolated()
 * check. With many reclaimers in a small memcg most of its folios sit
 * isolated at once and the charge ends in an OOM kill (seed 003, "mm/
 * vmscan: throttle MGLRU eviction when isolated folios pile up", v7).
 * The seed's throttle applies to the budgeted loop (seed 000), not to
 * 6.12's, where passes that age give up before the throttle has anything
 * to decide: this policy runs on budget's decisions (budget.bpf.c).
 *
 * When to use it: many reclaimers sharing a small memcg, with slow swap
 * or writeback. Knobs: noio_factor, max_throttles, wait_pct, and budget's
 * min_budget.
 */
#ifndef ISOLATION_THROTTLE_BPF_C
#define ISOLATION_THROTTLE_BPF_C

#define BUDGET_DECISIONS_ONLY
#include "budget.bpf.c"

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

static __always_inline s32
isolation_throttle_decide_isolate(const struct mglru_ext_ctx *ctx)
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
	/*
	 * Going on with every usable type is stock's decision: answer it as
	 * stock's, so that the policy's count of answers that differ from
	 * stock's counts only the batches it restricted or throttled.
	 */
	if (is_kswapd(ctx))
		return ctx->stock;

	if ((usable & MGLRU_EXT_ALLOW_FILE) &&
	    !over_isolated(ctx, MGLRU_EXT_FILE))
		allowed |= MGLRU_EXT_ALLOW_FILE;
	if ((usable & MGLRU_EXT_ALLOW_ANON) &&
	    !over_isolated(ctx, MGLRU_EXT_ANON))
		allowed |= MGLRU_EXT_ALLOW_ANON;
	if (allowed == usable)
		return ctx->stock;
	if (allowed)
		return MGLRU_EXT_GO | allowed;

	/*
	 * The kernel sleeps, then asks again with ctx->retry counting the
	 * sleeps; max_throttles of them and the pass ends.
	 */
	return ctx->retry < max_throttles ? MGLRU_EXT_THROTTLE : MGLRU_EXT_STOP;
}

/* The policy itself, unless another includes this file for its decisions */
#ifndef ISOLATION_THROTTLE_DECISIONS_ONLY

MGLRU_EXT_POLICY_DESC(
	"throttle eviction when isolated folios exceed a generation for every evictable type, on the budgeted loop");

s64 MGLRU_EXT_OP(isolation_throttle_scan_budget, const struct mglru_ext_ctx *rc)
{
	return budget_decide_scan_budget(rc);
}

s32 MGLRU_EXT_OP(isolation_throttle_isolate, const struct mglru_ext_ctx *rc)
{
	return isolation_throttle_decide_isolate(rc);
}

s32 MGLRU_EXT_OP(isolation_throttle_aging, const struct mglru_ext_ctx *rc)
{
	return budget_decide_aging(rc);
}

MGLRU_EXT_OPS_DEFINE(isolation_throttle_ops) = {
	.scan_budget = (void *)isolation_throttle_scan_budget,
	.isolate = (void *)isolation_throttle_isolate,
	.aging = (void *)isolation_throttle_aging,
	.name = "isolation_throttle",
};

#endif /* ISOLATION_THROTTLE_DECISIONS_ONLY */
#endif /* ISOLATION_THROTTLE_BPF_C */
