// SPDX-License-Identifier: GPL-2.0
/*
 * mglructl vmlinux-h: the running kernel's BTF as a C header, the
 * vmlinux.h a policy is compiled against (what `bpftool btf dump file
 * /sys/kernel/btf/vmlinux format c` prints), so that writing a policy
 * needs the installed SDK and this kernel, not a kernel tree.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"
#include "json_writer.h"
#include "mglructl.h"

const char vmlinux_h_usage[] =
	"Usage: mglructl vmlinux-h\n"
	"\n"
	"Print the running kernel's types (its BTF, /sys/kernel/btf/vmlinux)\n"
	"as a C header: mglructl vmlinux-h > vmlinux.h, then compile a policy\n"
	"with the SDK's flags (pkg-config --cflags mglru_ext).\n";

static void print_fn(void *ctx, const char *fmt, va_list args)
{
	vfprintf(ctx, fmt, args);
}

int cmd_vmlinux_h(int argc, char **argv)
{
	const struct opt opts[] = { {} };
	struct btf_dump *dump;
	struct btf *btf;
	__u32 id, n;
	int err;

	err = parse_options(argc, argv, opts, vmlinux_h_usage, 0);
	if (err)
		return err;
	if (json_output)
		return usage_error(
			vmlinux_h_usage,
			"vmlinux-h prints a C header; it takes no -j");
	btf = btf__load_vmlinux_btf();
	if (!btf)
		return fail(
			EXIT_NO_KERNEL_SUPPORT,
			"cannot read the kernel's BTF (/sys/kernel/btf/vmlinux): %s",
			strerror(errno));
	dump = btf_dump__new(btf, print_fn, stdout, NULL);
	if (!dump) {
		btf__free(btf);
		return fail(EXIT_FAILURE_OTHER, "btf_dump: %s",
			    strerror(errno));
	}
	printf("#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n\n");
	printf("#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n");
	printf("#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n");
	printf("#endif\n\n");
	n = btf__type_cnt(btf);
	for (id = 1; id < n && !err; id++)
		err = btf_dump__dump_type(dump, id);
	printf("\n#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n");
	printf("#pragma clang attribute pop\n#endif\n\n");
	printf("#endif /* __VMLINUX_H__ */\n");
	btf_dump__free(dump);
	btf__free(btf);
	if (err)
		return fail(EXIT_FAILURE_OTHER, "dumping type %u: %s", id,
			    strerror(-err));
	return fflush(stdout) ? EXIT_FAILURE_OTHER : EXIT_OK;
}
