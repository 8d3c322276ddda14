// SPDX-License-Identifier: GPL-2.0
/*
 * isolation_throttle: throttle MGLRU eviction when isolated folios pile up
 * (seed 003). See isolation_throttle.bpf.h. Knob: noio_factor.
 */
#include "isolation_throttle.bpf.h"

MGLRU_EXT_POLICY_DESC(
	"throttle eviction when isolated folios exceed a generation for every evictable type");

MGLRU_EXT_HOOK(s32, isolation_throttle_isolate)
{
	return isolation_throttle(ctx);
}

SEC(".struct_ops.link")
struct mglru_ext_ops isolation_throttle_ops = {
	.isolate = (void *)isolation_throttle_isolate,
	.name = "isolation_throttle",
};
