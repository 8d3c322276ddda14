// SPDX-License-Identifier: GPL-2.0
/* A policy that tries to write kernel memory: the verifier must refuse it. */
#include "policy.bpf.h"

SEC("struct_ops/writes_ctx_budget")
s64 BPF_PROG(writes_ctx_budget, struct mglru_ext_ctx *c)
{
	c->priority = 0;
	return c->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops writes_ctx_ops = {
	.scan_budget = (void *)writes_ctx_budget,
	.name = "writes_ctx",
};
