// SPDX-License-Identifier: GPL-2.0
/*
 * example: file first. A small complete policy, the one to copy when
 * writing a new one.
 *
 * It takes one decision, the type the next batch evicts: the page cache
 * (file) whenever the lruvec has at least min_file file folios to evict,
 * and the stock choice otherwise. A memcg whose anon memory is worth more
 * than its page cache then swaps less; one that rereads its files
 * refaults more. Every other decision stays stock's.
 *
 * docs/policy-api.md describes the hooks, the context and the answers.
 */

/* vmlinux.h, libbpf's BPF headers and the macros used below */
#include "policy.bpf.h"

/* One line, what `mglructl list` prints next to the policy's name. */
MGLRU_EXT_POLICY_DESC("file first, whenever there is file to evict");

/*
 * A knob: a const volatile global with its default (32), its range
 * (1 to 1000000) and what it means. mglructl checks a value against the
 * range and writes it into the object before loading it:
 * `mglructl load example --set min_file=64`, or a line of the config file.
 */
MGLRU_EXT_KNOB(__u64, min_file, 32, 1, 1000000,
	       "file folios to evict below which the stock choice stands");

/*
 * The choose_type hook, asked before each batch. rc, the reclaim context,
 * is read-only: the verifier refuses stores through it. (BPF_PROG calls
 * its own raw argument ctx, hence the name rc.)
 */
s32 MGLRU_EXT_OP(example_choose_type, const struct mglru_ext_ctx *rc)
{
	/*
	 * Swappiness above the maximum means reclaim for anon only, where
	 * the kernel refuses file as an answer: leave the choice to stock.
	 */
	if (rc->swappiness > MGLRU_EXT_MAX_SWAPPINESS)
		return rc->stock;
	/* Enough page cache to evict: file, at the tier stock would take. */
	if (rc->lru[MGLRU_EXT_FILE].evictable >= min_file)
		return MGLRU_EXT_FILE;
	/* Too little: stock's choice, which the kernel never refuses. */
	return rc->stock;
}

/*
 * The policy: the hooks it has and its name, which is also the name of
 * this file (mglructl finds a shipped policy by its file name). A hook left
 * out, here scan_budget, isolate and aging, takes the stock decision. No
 * .flags: the hook reads rc->lru, so the kernel must count the generations
 * for it; a policy whose hooks never read rc->lru sets
 * MGLRU_EXT_OPS_NO_LRU. mglructl fills .cgroup_id from --cgroup.
 */
MGLRU_EXT_OPS_DEFINE(example_ops) = {
	.choose_type = (void *)example_choose_type,
	.name = "example",
};
