// SPDX-License-Identifier: GPL-2.0
/*
 * budget: the budgeted reclaim loop, for a kernel whose stock loop is not.
 *
 * What it decides: a pass's scan budget, once, when the pass starts (the
 * evictable folios shifted right by the priority, and at least
 * min_budget of them); and to age as soon as eviction is not viable.
 * With a budget hook the kernel goes on evicting after aging instead of
 * ending the pass.
 *
 * Why: stock 6.12 works the budget out again before every batch and ends
 * the pass when it ages, so a memcg low on cold folios ages, gives up, and
 * its charge fails toward an OOM kill while file folios remain (seed 000,
 * "mm/mglru: improve reclaim loop and dirty flush"). 7.3's stock loop is
 * the budgeted one, and the kernel says so (MGLRU_EXT_STOCK_BUDGETED):
 * there every answer is stock's, so one object brings the loop to 6.12
 * and changes nothing on 7.3.
 *
 * When to use it: on 6.12, for memcgs whose charges fail toward OOM kills
 * while file folios remain. isolation_throttle and combined run on the
 * same loop: they include this file for its decisions.
 */
#ifndef BUDGET_BPF_C
#define BUDGET_BPF_C

#include "policy.bpf.h"

MGLRU_EXT_KNOB(__u64, min_budget, 32, 1, 1048576,
	       "smallest scan budget of a pass, in folios (stock has none)");

static __always_inline bool stock_is_budgeted(const struct mglru_ext_ctx *ctx)
{
	return ctx->flags & MGLRU_EXT_STOCK_BUDGETED;
}

static __always_inline s64
budget_decide_scan_budget(const struct mglru_ext_ctx *ctx)
{
	__u64 total = evictable_total(ctx);
	__u64 budget;

	if (stock_is_budgeted(ctx))
		return ctx->stock;

	/* a memcg being deleted gives everything back, as in stock */
	if (ctx->flags & MGLRU_EXT_MEMCG_OFFLINE)
		return total;

	budget = total >> ctx->priority;
	if (budget < min_budget)
		budget = min_budget < total ? min_budget : total;
	return budget;
}

static __always_inline s32 budget_decide_aging(const struct mglru_ext_ctx *ctx)
{
	if (stock_is_budgeted(ctx))
		return ctx->stock;
	if (!eviction_viable(ctx))
		return MGLRU_EXT_AGE_NOW;
	/* otherwise keep stock's balance heuristics */
	return ctx->stock;
}

/* The policy itself, unless another includes this file for its decisions */
#ifndef BUDGET_DECISIONS_ONLY

MGLRU_EXT_POLICY_DESC(
	"scan budget fixed once per pass, floored at SWAP_CLUSTER_MAX; age when eviction is not viable");

s64 MGLRU_EXT_OP(budget_scan_budget, const struct mglru_ext_ctx *rc)
{
	return budget_decide_scan_budget(rc);
}

s32 MGLRU_EXT_OP(budget_aging, const struct mglru_ext_ctx *rc)
{
	return budget_decide_aging(rc);
}

MGLRU_EXT_OPS_DEFINE(budget_ops) = {
	.scan_budget = (void *)budget_scan_budget,
	.aging = (void *)budget_aging,
	.name = "budget",
};

#endif /* BUDGET_DECISIONS_ONLY */
#endif /* BUDGET_BPF_C */
