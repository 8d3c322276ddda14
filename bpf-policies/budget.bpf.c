// SPDX-License-Identifier: GPL-2.0
/*
 * budget: the budgeted reclaim loop (seed 000). See budget.bpf.h for what
 * it decides and why. Knob: min_budget.
 */
#include "budget.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"scan budget fixed once per pass, floored at SWAP_CLUSTER_MAX; age when eviction is not viable");

MGLRU_EXT_HOOK(s64, budget_budget)
{
	return budget_scan_budget(ctx);
}

MGLRU_EXT_HOOK(s32, budget_age)
{
	return budget_aging(ctx);
}

SEC(".struct_ops.link")
struct mglru_ext_ops budget_ops = {
	.scan_budget = (void *)budget_budget,
	.aging = (void *)budget_age,
	.name = "budget",
};
