// SPDX-License-Identifier: GPL-2.0
/*
 * A policy with a single hook: every other decision must stay stock and
 * its hook must never be called.
 */
#include "policy.bpf.h"

MGLRU_EXT_HOOK(s32, aging_only_aging)
{
	return ctx->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops aging_only_ops = {
	.aging = (void *)aging_only_aging,
	.name = "aging_only",
};
