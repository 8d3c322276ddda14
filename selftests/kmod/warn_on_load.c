// SPDX-License-Identifier: GPL-2.0
/*
 * A module that WARNs when loaded and then refuses to stay: the VM
 * runner's own tests use it to check that a kernel warning in the guest
 * fails the run. (Debian's linux-source has no LKDTM.)
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init warn_on_load_init(void)
{
	WARN(1, "mglru_ext selftest: deliberate warning\n");
	return -EAGAIN;
}
module_init(warn_on_load_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mglru_ext selftest: WARN on load");
