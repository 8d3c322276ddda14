// SPDX-License-Identifier: GPL-2.0
/*
 * The place hook alone, answering stock's placement for every folio:
 * make bench BENCH=place compares it with no policy and with a policy
 * without the hook to price what placing costs per page added.
 */
#include "policy.bpf.h"

s32 MGLRU_EXT_OP(passthrough_place_place, const struct mglru_ext_folio_ctx *fc)
{
	return fc->stock;
}

MGLRU_EXT_OPS_DEFINE(passthrough_place_ops) = {
	.place = (void *)passthrough_place_place,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "passthrough_place",
};
