// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_throttle: throttle MGLRU eviction when isolated folios pile up
 * (seed 003). See isolation_throttle.bpf.h. Knobs: noio_factor,
 * max_throttles, and budget.bpf.h's min_budget.
 *
 * The throttle is run on the budgeted loop (budget.bpf.h), as in the seed:
 * its v7 applies to the reworked reclaim loop of seed 000, not to 6.12's.
 * Measured on the bench kernel, 192 threads in 16 MiB: the throttle alone
 * on 6.12's loop was OOM-killed in 6 of 6 runs; on the budgeted loop,
 * 9 of 14 runs completed. Traces of the failures showed reclaim passes
 * with nothing to scan (nearly every folio isolated, aging held by another
 * reclaimer) returning empty in 0.2 ms until the charge gave up; with the
 * wait in those passes (isolation_wait()), 15 of 15 runs completed.
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
