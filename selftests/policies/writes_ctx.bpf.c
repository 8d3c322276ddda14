// SPDX-License-Identifier: GPL-2.0
/* A policy that tries to write kernel memory: the verifier must refuse it. */
#include "policy.bpf.h"

MGLRU_EXT_HOOK(s64, writes_ctx_budget, struct mglru_ext_ctx *ctx)
{
	ctx->priority = 0;
	return ctx->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops writes_ctx_ops = {
	.scan_budget = (void *)writes_ctx_budget,
	.name = "writes_ctx",
};
