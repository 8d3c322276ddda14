// SPDX-License-Identifier: GPL-2.0
/*
 * passthrough: every hook of the reclaim pass returns the stock decision
 * it is given.
 *
 * Reclaim behaves as with no policy at all (except that the scan budget
 * is taken once per pass, as for every policy with a budget hook), so
 * this measures what the framework itself costs: `make bench` compares
 * it with no policy. It has no place hook, so that its figures stay
 * those of the pass; what placing costs per folio added is the place
 * section's, measured with selftests/policies/passthrough_place. It
 * reads nothing of the lruvec's generations, and says so
 * (MGLRU_EXT_OPS_NO_LRU): the kernel does not count them for it.
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"every hook returns the stock decision (framework overhead)");

s64 MGLRU_EXT_OP(passthrough_scan_budget, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_choose_type, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_isolate, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

s32 MGLRU_EXT_OP(passthrough_aging, const struct mglru_ext_ctx *rc)
{
	return rc->stock;
}

MGLRU_EXT_OPS_DEFINE(passthrough_ops) = {
	.scan_budget = (void *)passthrough_scan_budget,
	.choose_type = (void *)passthrough_choose_type,
	.isolate = (void *)passthrough_isolate,
	.aging = (void *)passthrough_aging,
	.flags = MGLRU_EXT_OPS_NO_LRU,
	.name = "passthrough",
};
