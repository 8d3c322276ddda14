// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_throttle: throttle MGLRU eviction when isolated folios pile up
 * (seed 003). See isolation_throttle.bpf.h. Knobs: noio_factor,
 * max_throttles, and budget.bpf.h's min_budget.
 *
 * The throttle is run on the budgeted loop (budget.bpf.h), as in the seed:
 * its v7 applies to the reworked reclaim loop of seed 000, not to 6.12's.
 * Measured on the bench kernel, 192 threads in 16 MiB: the throttle alone
 * on 6.12's loop was OOM-killed in 6 of 6 runs. Tracing the last reclaim
 * calls before the kill showed them at priority 0, where the throttle
 * answers stock and 2346 of the memcg's anon folios were isolated: with
 * stock's small budgets at the high priorities, passes ended early (aging,
 * nothing old enough to evict) and every reclaimer fell through to the
 * last priority at once. With the budgeted loop under the same throttle,
 * 4 of 6 runs completed (59-76k touches).
 */
#include "budget.bpf.h"
#include "isolation_throttle.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"throttle eviction when isolated folios exceed a generation for every evictable type, on the budgeted loop");

MGLRU_EXT_HOOK(s64, isolation_throttle_budget)
{
	return budget_scan_budget(ctx);
}

MGLRU_EXT_HOOK(s32, isolation_throttle_isolate)
{
	return isolation_throttle(ctx);
}

MGLRU_EXT_HOOK(s32, isolation_throttle_aging)
{
	return budget_aging(ctx);
}

SEC(".struct_ops.link")
struct mglru_ext_ops isolation_throttle_ops = {
	.scan_budget = (void *)isolation_throttle_budget,
	.isolate = (void *)isolation_throttle_isolate,
	.aging = (void *)isolation_throttle_aging,
	.name = "isolation_throttle",
};
