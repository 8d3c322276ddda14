// SPDX-License-Identifier: GPL-2.0
/*
 * passthrough: every hook returns the stock decision it is given.
 *
 * Reclaim behaves as with no policy at all (except that the scan budget
 * is taken once per pass, as for every policy with a budget hook), so
 * this measures what the framework itself costs: `make bench` compares
 * it with no policy.
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"every hook returns the stock decision (framework overhead)");

MGLRU_EXT_HOOK(s64, passthrough_scan_budget)
{
	return ctx->stock;
}

MGLRU_EXT_HOOK(s32, passthrough_choose_type)
{
	return ctx->stock;
}

MGLRU_EXT_HOOK(s32, passthrough_isolate)
{
	return ctx->stock;
}

MGLRU_EXT_HOOK(s32, passthrough_aging)
{
	return ctx->stock;
}

SEC(".struct_ops.link")
struct mglru_ext_ops passthrough_ops = {
	.scan_budget = (void *)passthrough_scan_budget,
	.choose_type = (void *)passthrough_choose_type,
	.isolate = (void *)passthrough_isolate,
	.aging = (void *)passthrough_aging,
	.name = "passthrough",
};
