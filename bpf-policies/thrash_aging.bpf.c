// SPDX-License-Identifier: GPL-2.0
/*
 * thrash_aging: age when eviction only recycles the oldest generation
 * (seed 001). See thrash_aging.bpf.h. Knobs: refault_pct, min_evictions,
 * window_ms, min_interval_ms, hold_max_ms, collapse_check_windows.
 */
#include "thrash_aging.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"age when the oldest generation thrashes (its refaults keep pace with its evictions)");

s32 MGLRU_EXT_OP(thrash_aging_age, const struct mglru_ext_ctx *rc)
{
	return thrash_aging(rc);
}

s32 MGLRU_EXT_OP(thrash_aging_choose_type, const struct mglru_ext_ctx *rc)
{
	return thrash_aging_type(rc);
}

MGLRU_EXT_OPS_DEFINE(thrash_aging_ops) = {
	.choose_type = (void *)thrash_aging_choose_type,
	.aging = (void *)thrash_aging_age,
	.name = "thrash_aging",
};
