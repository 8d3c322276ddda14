// SPDX-License-Identifier: GPL-2.0
/*
 * A policy with a single hook: every other decision must stay stock and
 * its hook must never be called.
 */
#include "policy.bpf.h"

s32 MGLRU_EXT_OP(aging_only_aging, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(aging_only_ops) = {
	.aging = (void *)aging_only_aging,
	.name = "aging_only",
};
