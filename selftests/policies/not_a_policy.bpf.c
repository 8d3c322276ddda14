// SPDX-License-Identifier: GPL-2.0
/* A valid BPF object that is not an mglru_ext policy: mglructl refuses it. */
#include "policy.bpf.h"

SEC("tracepoint/syscalls/sys_enter_getpid")
int not_a_policy(void *ctx)
{
	return 0;
}
