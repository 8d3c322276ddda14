// SPDX-License-Identifier: GPL-2.0
/*
 * A policy without hooks: attached, looked up and accounted for on every
 * pass, never asked. make bench BENCH=hooks compares it with no policy to
 * price what a pass pays for having a policy at all.
 */
#include "policy.bpf.h"

MGLRU_EXT_OPS_DEFINE(stock_no_hooks_ops) = {
	.name = "stock_no_hooks",
};
