// SPDX-License-Identifier: GPL-2.0
/*
 * The isolate hook alone, returning the stock decision and reading nothing
 * of ctx->lru, as passthrough: one hook call per batch (make bench
 * BENCH=hooks).
 */
#include "policy.bpf.h"

s32 MGLRU_EXT_OP(stock_isolate_only_isolate, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(stock_isolate_only_ops) = {
	.isolate = (void *)stock_isolate_only_isolate,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "stock_isolate_only",
};
