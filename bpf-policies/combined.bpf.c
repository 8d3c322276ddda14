// SPDX-License-Identifier: GPL-2.0
/*
 * combined: budget, isolation_throttle and thrash_aging in one policy.
 *
 * What it decides: the scan budget as budget does, isolation as
 * isolation_throttle does, the type as thrash_aging does, and aging when
 * eviction is not viable (budget), when stock would, or when the oldest
 * generation thrashes (thrash_aging). The decisions and the knobs are
 * those of the three files, which it includes for their decisions only.
 *
 * Why: a cgroup has one policy; this is for a cgroup that wants all three.
 */
#define BUDGET_DECISIONS_ONLY
#define ISOLATION_THROTTLE_DECISIONS_ONLY
#define THRASH_AGING_DECISIONS_ONLY
#include "budget.bpf.c"
#include "isolation_throttle.bpf.c"
#include "thrash_aging.bpf.c"

MGLRU_EXT_POLICY_DESC("budget + isolation_throttle + thrash_aging");

s64 MGLRU_EXT_OP(combined_scan_budget, const struct mglru_ext_ctx *rc)
{
	return budget_decide_scan_budget(rc);
}

s32 MGLRU_EXT_OP(combined_isolate, const struct mglru_ext_ctx *rc)
{
	return isolation_throttle_decide_isolate(rc);
}

s32 MGLRU_EXT_OP(combined_aging, const struct mglru_ext_ctx *rc)
{
	if (budget_decide_aging(rc) == MGLRU_EXT_AGE_NOW)
		return MGLRU_EXT_AGE_NOW;
	return thrash_aging_decide_aging(rc);
}

s32 MGLRU_EXT_OP(combined_choose_type, const struct mglru_ext_ctx *rc)
{
	return thrash_aging_decide_choose_type(rc);
}

MGLRU_EXT_OPS_DEFINE(combined_ops) = {
	.scan_budget = (void *)combined_scan_budget,
	.choose_type = (void *)combined_choose_type,
	.isolate = (void *)combined_isolate,
	.aging = (void *)combined_aging,
	.name = "combined",
};
