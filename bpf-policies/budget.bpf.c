// SPDX-License-Identifier: GPL-2.0
/*
 * budget: the budgeted reclaim loop (seed 000). See budget.bpf.h for what
 * it decides and why. Knob: min_budget.
 */
#include "budget.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"scan budget fixed once per pass, floored at SWAP_CLUSTER_MAX; age when eviction is not viable");

s64 MGLRU_EXT_OP(budget_budget, const struct mglru_ext_ctx *rc)
{
	return budget_scan_budget(rc);
}

s32 MGLRU_EXT_OP(budget_age, const struct mglru_ext_ctx *rc)
{
	return budget_aging(rc);
}

MGLRU_EXT_OPS_DEFINE(budget_ops) = {
	.scan_budget = (void *)budget_budget,
	.aging = (void *)budget_age,
	.name = "budget",
};
