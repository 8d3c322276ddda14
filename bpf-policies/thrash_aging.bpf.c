// SPDX-License-Identifier: GPL-2.0
/*
 * thrash_aging: age when eviction only recycles the oldest generation
 * (seed 001). See thrash_aging.bpf.h. Knobs: refault_pct, min_evictions,
 * window_ms, min_interval_ms, collapse_check_windows.
 */
#include "thrash_aging.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"age when the oldest generation thrashes (its refaults keep pace with its evictions)");

MGLRU_EXT_HOOK(s32, thrash_aging_age)
{
	return thrash_aging(ctx);
}

MGLRU_EXT_HOOK(s32, thrash_aging_choose_type)
{
	return thrash_aging_type(ctx);
}

SEC(".struct_ops.link")
struct mglru_ext_ops thrash_aging_ops = {
	.choose_type = (void *)thrash_aging_choose_type,
	.aging = (void *)thrash_aging_age,
	.name = "thrash_aging",
};
