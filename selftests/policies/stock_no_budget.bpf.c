// SPDX-License-Identifier: GPL-2.0
/*
 * Every hook but the budget, each returning the stock decision and reading
 * nothing of ctx->lru, as passthrough. Without a budget hook the loop is
 * exactly stock's, so against stock_isolate_only this prices a further
 * hook call of a batch (make bench BENCH=hooks).
 */
#include "policy.bpf.h"

s32 MGLRU_EXT_OP(stock_no_budget_type, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(stock_no_budget_isolate, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(stock_no_budget_aging, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(stock_no_budget_ops) = {
	.choose_type = (void *)stock_no_budget_type,
	.isolate = (void *)stock_no_budget_isolate,
	.aging = (void *)stock_no_budget_aging,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "stock_no_budget",
};
