// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_throttle: throttle MGLRU eviction when isolated folios pile up
 * (seed 003). See isolation_throttle.bpf.h. Knobs: noio_factor,
 * max_throttles, and budget.bpf.h's min_budget.
 *
 * The throttle is run on the budgeted loop (budget.bpf.h), as in the seed:
 * its v7 applies to the reworked reclaim loop of seed 000, not to 6.12's,
 * where passes that age give up before the throttle has anything to
 * decide. It also waits in passes that find nothing to scan while folios
 * are isolated (isolation_wait()): without that, the charge gives up in
 * those passes within milliseconds and retries into an OOM kill.
 */
#include "budget.bpf.h"
#include "isolation_throttle.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"throttle eviction when isolated folios exceed a generation for every evictable type, on the budgeted loop");

s64 MGLRU_EXT_OP(isolation_throttle_budget, const struct mglru_ext_ctx *rc)
{
	return budget_scan_budget(rc);
}

s32 MGLRU_EXT_OP(isolation_throttle_isolate, const struct mglru_ext_ctx *rc)
{
	return isolation_throttle(rc);
}

s32 MGLRU_EXT_OP(isolation_throttle_aging, const struct mglru_ext_ctx *rc)
{
	return budget_aging(rc);
}

MGLRU_EXT_OPS_DEFINE(isolation_throttle_ops) = {
	.scan_budget = (void *)isolation_throttle_budget,
	.isolate = (void *)isolation_throttle_isolate,
	.aging = (void *)isolation_throttle_aging,
	.name = "isolation_throttle",
};
