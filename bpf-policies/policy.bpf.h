/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the mglru_ext policies. Include this, not vmlinux.h
 * and the libbpf headers one by one.
 *
 * Vocabulary (see Documentation/admin-guide/mm/mglru_ext.rst in the
 * kernel series): ctx->gen_size[type][0] is the oldest generation of a
 * type, ctx->nr_gens[type] of them are valid; evicted/refaulted count the
 * oldest generation's folios per tier since it became the oldest.
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

/* Declare one hook of a policy. */
#define MGLRU_EXT_HOOK(ret, name, args...) \
	SEC("struct_ops/" #name) ret BPF_PROG(name, ##args)

void bpf_mglru_ext_eject(const struct mglru_ext_ctx *ctx, const char *msg__str) __ksym;

static __always_inline bool can_evict_anon(const struct mglru_ext_ctx *ctx)
{
	return ctx->swappiness != 0;
}

/* Folios reclaim may evict now, of the types swappiness allows. */
static __always_inline __u64 evictable_total(const struct mglru_ext_ctx *ctx)
{
	__u64 total = ctx->evictable[MGLRU_EXT_FILE];

	if (can_evict_anon(ctx))
		total += ctx->evictable[MGLRU_EXT_ANON];
	return total;
}

/* Eviction needs a generation older than the MIN_NR_GENS youngest. */
static __always_inline bool eviction_viable(const struct mglru_ext_ctx *ctx)
{
	if (ctx->nr_gens[MGLRU_EXT_FILE] <= MIN_NR_GENS)
		return false;
	if (can_evict_anon(ctx) && ctx->nr_gens[MGLRU_EXT_ANON] <= MIN_NR_GENS)
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
