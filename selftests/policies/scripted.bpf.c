// SPDX-License-Identifier: GPL-2.0
/*
 * A test policy whose every answer is set by a knob, so one object covers
 * the hook tests and the bad-policy gallery. A knob at its default means
 * "return the stock decision". Each hook also counts its calls and checks
 * that the context it sees is sane (see ctx_errors).
 */
#include "policy.bpf.h"

MGLRU_EXT_POLICY_DESC("test policy: every decision set by a knob");

#define STOCK -1000

MGLRU_EXT_KNOB(__s64, budget, STOCK, -1000000, 1000000000000,
	       "scan budget to return (-1000: stock)");
MGLRU_EXT_KNOB(__s32, type, STOCK, -1000, 100000,
	       "type code to return (-1000: stock)");
MGLRU_EXT_KNOB(__s32, isolate, STOCK, -1000, 100000,
	       "isolate code to return (-1000: stock)");
MGLRU_EXT_KNOB(__s32, aging, STOCK, -1000, 100000,
	       "aging code to return (-1000: stock)");
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
	    ctx->priority > DEF_PRIORITY)
		__sync_fetch_and_add(&ctx_errors, 1);
	for (i = 0; i < spin && i < 100000; i++)
		sink += i;
	if (eject_after && calls == eject_after)
		bpf_mglru_ext_eject(ctx, "scripted: eject_after reached");
}

MGLRU_EXT_HOOK(s64, scripted_budget)
{
	common(ctx);
	return budget == STOCK ? ctx->stock : budget;
}

MGLRU_EXT_HOOK(s32, scripted_type)
{
	common(ctx);
	return type == STOCK ? ctx->stock : type;
}

MGLRU_EXT_HOOK(s32, scripted_isolate)
{
	common(ctx);
	if (ctx->stock == MGLRU_EXT_STOP)
		__sync_fetch_and_add(&nothing_to_scan, 1);
	return isolate == STOCK ? ctx->stock : isolate;
}

MGLRU_EXT_HOOK(s32, scripted_aging)
{
	common(ctx);
	return aging == STOCK ? ctx->stock : aging;
}

SEC("struct_ops.s/scripted_init")
s32 BPF_PROG(scripted_init)
{
	return init_ret;
}

SEC(".struct_ops.link")
struct mglru_ext_ops scripted_ops = {
	.scan_budget = (void *)scripted_budget,
	.choose_type = (void *)scripted_type,
	.isolate = (void *)scripted_isolate,
	.aging = (void *)scripted_aging,
	.init = (void *)scripted_init,
	.name = "scripted",
};
