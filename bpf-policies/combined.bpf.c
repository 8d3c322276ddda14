// SPDX-License-Identifier: GPL-2.0
/*
 * combined: budget + isolation_throttle + thrash_aging in one policy, for
 * a cgroup that wants all three (one policy per cgroup). The decisions are
 * the ones in budget.bpf.h, isolation_throttle.bpf.h and thrash_aging.bpf.h;
 * so are the knobs. Aging runs when eviction is not viable, when stock
 * would, or when the oldest generation thrashes.
 */
#include "budget.bpf.h"
#include "isolation_throttle.bpf.h"
#include "thrash_aging.bpf.h"

MGLRU_EXT_POLICY_DESC("budget + isolation_throttle + thrash_aging");

s64 MGLRU_EXT_OP(combined_budget, const struct mglru_ext_ctx *rc)
{
	return budget_scan_budget(rc);
}

s32 MGLRU_EXT_OP(combined_isolate, const struct mglru_ext_ctx *rc)
{
	return isolation_throttle(rc);
}

s32 MGLRU_EXT_OP(combined_age, const struct mglru_ext_ctx *rc)
{
	if (budget_aging(rc) == MGLRU_EXT_AGE_NOW)
		return MGLRU_EXT_AGE_NOW;
	return thrash_aging(rc);
}

s32 MGLRU_EXT_OP(combined_choose_type, const struct mglru_ext_ctx *rc)
{
	return thrash_aging_type(rc);
}

MGLRU_EXT_OPS_DEFINE(combined_ops) = {
	.scan_budget = (void *)combined_budget,
	.choose_type = (void *)combined_choose_type,
	.isolate = (void *)combined_isolate,
	.aging = (void *)combined_age,
	.name = "combined",
};
