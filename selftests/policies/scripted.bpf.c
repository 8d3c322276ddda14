// SPDX-License-Identifier: GPL-2.0
/*
 * A test policy whose every answer is set by a knob, so one object covers
 * the hook tests and the bad-policy gallery. A knob at its default means
 * "return the stock decision"; the answer knobs take the names of the
 * kernel's answer enums (--set isolate='GO|ALLOW_FILE'). Each hook also counts its calls and checks
 * that the context it sees is sane (see ctx_errors).
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC("test policy: every decision set by a knob");

#define STOCK -1000

MGLRU_EXT_KNOB(__s64, budget, STOCK, -1000000, 1000000000000,
	       "scan budget to return (-1000: stock)");
MGLRU_EXT_KNOB(enum mglru_ext_type_answer, type, STOCK, -1000, 255,
	       "type to return: ANON or FILE (-1000: stock)");
MGLRU_EXT_KNOB(__s32, tier, -1, -1, 1000,
	       "tier to evict up to, returned with type (-1: the stock tier)");
MGLRU_EXT_KNOB(enum mglru_ext_isolate_answer, isolate, STOCK, -1000, 255,
	       "isolate answer, e.g. GO|ALLOW_FILE (-1000: stock)");
MGLRU_EXT_KNOB(
	enum mglru_ext_aging_answer, aging, STOCK, -1000, 255,
	"aging answer: AGE_NOW, AGE_SKIP or AGE_FOLD_HEAD (-1000: stock)");
MGLRU_EXT_KNOB(__u64, eject_after, 0, 0, 1000000000,
	       "eject itself after this many calls (0: never)");
MGLRU_EXT_KNOB(__u32, spin, 0, 0, 100000,
	       "loop iterations to burn in every hook");
MGLRU_EXT_KNOB(__s32, init_ret, 0, -4095, 0, "what init returns");

/* user space reads these through the map */
__u64 calls;
__u64 ctx_errors;
/* isolate calls of a pass that found nothing to scan (stock: stop) */
__u64 nothing_to_scan;
volatile __u64 sink;

static __always_inline void common(const struct mglru_ext_ctx *ctx)
{
	__u32 i;

	__sync_fetch_and_add(&calls, 1);
	if (ctx->lru[MGLRU_EXT_FILE].nr_gens > MGLRU_EXT_NR_GENS ||
	    ctx->lru[MGLRU_EXT_FILE].min_seq > ctx->max_seq ||
	    ctx->priority > MGLRU_EXT_DEF_PRIORITY)
		__sync_fetch_and_add(&ctx_errors, 1);
	for (i = 0; i < spin && i < 100000; i++)
		sink += i;
	if (eject_after && calls == eject_after)
		bpf_mglru_ext_eject(ctx, "scripted: eject_after reached");
}

s64 MGLRU_EXT_OP(scripted_budget, const struct mglru_ext_ctx *rc)
{
	common(rc);
	return budget == STOCK ? rc->stock : budget;
}

s32 MGLRU_EXT_OP(scripted_type, const struct mglru_ext_ctx *rc)
{
	common(rc);
	if ((__s32)type == STOCK)
		return rc->stock;
	return mglru_ext_type_answer(type, tier);
}

s32 MGLRU_EXT_OP(scripted_isolate, const struct mglru_ext_ctx *rc)
{
	common(rc);
	if (rc->stock == MGLRU_EXT_STOP)
		__sync_fetch_and_add(&nothing_to_scan, 1);
	return (__s32)isolate == STOCK ? rc->stock : isolate;
}

s32 MGLRU_EXT_OP(scripted_aging, const struct mglru_ext_ctx *rc)
{
	common(rc);
	return (__s32)aging == STOCK ? rc->stock : aging;
}

s32 MGLRU_EXT_OP_SLEEPABLE(scripted_init)
{
	return init_ret;
}

MGLRU_EXT_OPS_DEFINE(scripted_ops) = {
	.scan_budget = (void *)scripted_budget,
	.choose_type = (void *)scripted_type,
	.isolate = (void *)scripted_isolate,
	.aging = (void *)scripted_aging,
	.init = (void *)scripted_init,
	.name = "scripted",
};
