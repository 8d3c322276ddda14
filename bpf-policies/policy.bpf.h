/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the mglru_ext policies. Include this, not vmlinux.h
 * and the libbpf headers one by one.
 *
 * Vocabulary (see Documentation/admin-guide/mm/mglru_ext.rst in the
 * kernel series): ctx->lru[type] describes one type; its gen_size[0] is
 * the oldest generation, nr_gens of them are valid; evicted and refaulted
 * count the oldest generation's folios per tier since it became the oldest.
 */
#ifndef MGLRU_EXT_POLICY_BPF_H
#define MGLRU_EXT_POLICY_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "mglru_ext_policy.h"

/* From the kernel, which doesn't put #defines in BTF. */
#define MGLRU_EXT_NR_GENS 4
#define MGLRU_EXT_NR_TIERS 4
#define MGLRU_EXT_TIER(tier) (((tier) + 1) << MGLRU_EXT_TIER_SHIFT)
#define SWAP_CLUSTER_MAX 32ULL
#define MIN_NR_GENS 2U
#define DEF_PRIORITY 12

/*
 * Define a hook: MGLRU_EXT_HOOK(s32, my_aging) { ... ctx ... }. The body
 * sees `const struct mglru_ext_ctx *ctx`; the verifier types it from the
 * kernel's struct mglru_ext_ops, and refuses stores through it.
 */
#define MGLRU_EXT_HOOK(ret, name)                                         \
	static __always_inline ret ____##name(                            \
		const struct mglru_ext_ctx *ctx);                         \
	SEC("struct_ops/" #name) ret name(unsigned long long *args)       \
	{                                                                 \
		return ____##name((const struct mglru_ext_ctx *)args[0]); \
	}                                                                 \
	static __always_inline ret ____##name(const struct mglru_ext_ctx *ctx)

void bpf_mglru_ext_eject(const struct mglru_ext_ctx *ctx,
			 const char *msg__str) __ksym;

static __always_inline bool can_evict_anon(const struct mglru_ext_ctx *ctx)
{
	return ctx->swappiness != 0;
}

/* Folios reclaim may evict now, of the types swappiness allows. */
static __always_inline __u64 evictable_total(const struct mglru_ext_ctx *ctx)
{
	__u64 total = ctx->lru[MGLRU_EXT_FILE].evictable;

	if (can_evict_anon(ctx))
		total += ctx->lru[MGLRU_EXT_ANON].evictable;
	return total;
}

/* Eviction needs a generation older than the MIN_NR_GENS youngest. */
static __always_inline bool eviction_viable(const struct mglru_ext_ctx *ctx)
{
	if (ctx->lru[MGLRU_EXT_FILE].nr_gens <= MIN_NR_GENS)
		return false;
	if (can_evict_anon(ctx) &&
	    ctx->lru[MGLRU_EXT_ANON].nr_gens <= MIN_NR_GENS)
		return false;
	return true;
}

static __always_inline bool is_kswapd(const struct mglru_ext_ctx *ctx)
{
	return ctx->flags & MGLRU_EXT_KSWAPD;
}

static __always_inline bool may_io_and_fs(const struct mglru_ext_ctx *ctx)
{
	return (ctx->flags & (MGLRU_EXT_MAY_IO | MGLRU_EXT_MAY_FS)) ==
	       (MGLRU_EXT_MAY_IO | MGLRU_EXT_MAY_FS);
}

/* Sum of a per-tier counter of the oldest generation. */
static __always_inline __u64 sum_tiers(const __u64 *counts)
{
	__u64 sum = 0;
	int tier;

	for (tier = 0; tier < MGLRU_EXT_NR_TIERS; tier++)
		sum += counts[tier];
	return sum;
}

char LICENSE[] SEC("license") = "GPL";

#endif /* MGLRU_EXT_POLICY_BPF_H */
