// SPDX-License-Identifier: GPL-2.0
/*
 * Every hook but the budget, each returning the stock decision. Without a
 * budget hook the loop is exactly stock's, and the aging, isolate and type
 * hooks of a batch share one context fill, so against stock_isolate_only
 * this prices a hook call without a fill (make bench BENCH=hooks).
 */
#include "policy.bpf.h"

MGLRU_EXT_HOOK(s32, stock_no_budget_type)
{
	return ctx->stock;
}

MGLRU_EXT_HOOK(s32, stock_no_budget_isolate)
{
	return ctx->stock;
}

MGLRU_EXT_HOOK(s32, stock_no_budget_aging)
{
	return ctx->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops stock_no_budget_ops = {
	.choose_type = (void *)stock_no_budget_type,
	.isolate = (void *)stock_no_budget_isolate,
	.aging = (void *)stock_no_budget_aging,
	.name = "stock_no_budget",
};
