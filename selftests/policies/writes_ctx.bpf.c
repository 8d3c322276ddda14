// SPDX-License-Identifier: GPL-2.0
/* A policy that tries to write kernel memory: the verifier must refuse it. */
#include "policy.bpf.h"

s64 MGLRU_EXT_OP(writes_ctx_budget, struct mglru_ext_ctx *c)
{
	c->priority = 0;
	return c->stock;
}

MGLRU_EXT_OPS_DEFINE(writes_ctx_ops) = {
	.scan_budget = (void *)writes_ctx_budget,
	.name = "writes_ctx",
};
