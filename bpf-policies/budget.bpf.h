/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The budgeted loop (linux-mm "mm/mglru: improve reclaim loop and dirty
 * flush", seed 000), as decisions the budget and combined policies share.
 *
 * Stock 6.12 recomputes the number of folios to scan on every batch and
 * ends the pass as soon as it ages, so a memcg low on cold folios ages,
 * gives up, and its charge fails toward OOM while file folios remain.
 * Here the budget is computed once at the start of a pass (the kernel asks
 * the budget hook once), floored at SWAP_CLUSTER_MAX so a small memcg still
 * makes progress at the default priority, and aging runs as soon as
 * eviction is not viable; with a budget hook the kernel goes on evicting
 * after aging instead of ending the pass.
 *
 * Upstream merged the loop: on a kernel whose stock loop is the budgeted
 * one (7.3; the kernel says so with MGLRU_EXT_STOCK_BUDGETED) these hooks
 * answer what stock answers, so the same object brings the loop to 6.12
 * and changes nothing on 7.3.
 */
#ifndef BUDGET_BPF_H
#define BUDGET_BPF_H

#include "policy.bpf.h"

MGLRU_EXT_KNOB(__u64, min_budget, 32, 1, 1048576,
	       "smallest scan budget of a pass, in folios (stock has none)");

static __always_inline bool stock_is_budgeted(const struct mglru_ext_ctx *ctx)
{
	return ctx->flags & MGLRU_EXT_STOCK_BUDGETED;
}

static __always_inline s64 budget_scan_budget(const struct mglru_ext_ctx *ctx)
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

static __always_inline s32 budget_aging(const struct mglru_ext_ctx *ctx)
{
	if (stock_is_budgeted(ctx))
		return ctx->stock;
	if (!eviction_viable(ctx))
		return MGLRU_EXT_AGE_NOW;
	/* otherwise keep stock's balance heuristics */
	return ctx->stock;
}

#endif /* BUDGET_BPF_H */
