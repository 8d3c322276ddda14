// SPDX-License-Identifier: GPL-2.0
/*
 * The isolate hook alone, returning the stock decision: one hook call and
 * one context fill per batch (make bench BENCH=hooks).
 */
#include "policy.bpf.h"

MGLRU_EXT_HOOK(s32, stock_isolate_only_isolate)
{
	return ctx->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops stock_isolate_only_ops = {
	.isolate = (void *)stock_isolate_only_isolate,
	.name = "stock_isolate_only",
};
