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

MGLRU_EXT_HOOK(s64, combined_budget)
{
	return budget_scan_budget(ctx);
}

MGLRU_EXT_HOOK(s32, combined_isolate)
{
	return isolation_throttle(ctx);
}

MGLRU_EXT_HOOK(s32, combined_age)
{
	if (budget_aging(ctx) == MGLRU_EXT_AGE_NOW)
		return MGLRU_EXT_AGE_NOW;
	return thrash_aging(ctx);
}

MGLRU_EXT_HOOK(s32, combined_choose_type)
{
	return thrash_aging_type(ctx);
}

SEC(".struct_ops.link")
struct mglru_ext_ops combined_ops = {
	.scan_budget = (void *)combined_budget,
	.choose_type = (void *)combined_choose_type,
	.isolate = (void *)combined_isolate,
	.aging = (void *)combined_age,
	.name = "combined",
};
