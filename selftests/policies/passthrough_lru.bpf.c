// SPDX-License-Identifier: GPL-2.0
/*
 * passthrough without MGLRU_EXT_OPS_NO_LRU: every hook returns the stock
 * decision, and the kernel counts the lruvec's generations into ctx->lru
 * before the first hook of each batch, as for a policy that reads them.
 * Against passthrough this prices that fill (make bench BENCH=hooks).
 */
#include "policy.bpf.h"

s64 MGLRU_EXT_OP(passthrough_lru_scan_budget, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_lru_choose_type, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_lru_isolate, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_lru_aging, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(passthrough_lru_ops) = {
	.scan_budget = (void *)passthrough_lru_scan_budget,
	.choose_type = (void *)passthrough_lru_choose_type,
	.isolate = (void *)passthrough_lru_isolate,
	.aging = (void *)passthrough_lru_aging,
	.name = "passthrough_lru",
};
