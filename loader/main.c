// SPDX-License-Identifier: GPL-2.0
/*
 * mglructl: load, list, pin, unload, report and compare mglru_ext
 * policies, and keep a configured assignment of policies to cgroups.
 *
 * The kernel is the source of truth for what is attached: its table lists
 * every policy with its counters and, once ejected or detached, its exit
 * record. mglructl keeps no state of its own beyond the bpffs pins that
 * keep policies attached after it exits (PIN_ROOT/system/link and
 * PIN_ROOT/cgroup-<id>/link) and, for policies attached from the config
 * file, a marker directory next to the pin (see apply.c).
 *
 * One file per command, as bpftool does; this one takes the global
 * options (-v, -j, -p) and dispatches, and prints the JSON document a
 * command built under -j once it returns (json_writer.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "json_writer.h"
#include "log.h"
#include "mglructl.h"

static const char main_usage[] =
	"Usage: mglructl [-v] [-j | -p] COMMAND [ARGS]\n"
	"\n"
	"Load and manage mglru_ext policies: BPF programs that decide the\n"
	"multi-gen LRU reclaim loop, system-wide or for one cgroup subtree.\n"
	"\n"
	"Commands:\n"
	"  list                           policies that ship, and those attached\n"
	"  load POLICY|FILE.bpf.o [--cgroup PATH] [--set KNOB=VALUE]... [--foreground]\n"
	"                                 attach a policy (pinned, stays attached)\n"
	"  unload NAME | --cgroup PATH | --all\n"
	"                                 detach policies and remove their pins\n"
	"  status [--format=prometheus] [--watch [SECONDS]]\n"
	"                                 kernel support, policies, counters, exits\n"
	"  run --policy P [--set KNOB=VALUE]... [--memory-max SIZE] [--swap-max SIZE]\n"
	"      -- CMD [ARGS]...           run CMD in a new cgroup under policy P\n"
	"  compare [--policy A] [--policy B] [--repeat N] ... -- CMD...\n"
	"                                 run CMD under A and B side by side\n"
	"  apply [--config FILE] [--check]\n"
	"                                 attach what the config file assigns\n"
	"  daemon [--config FILE]         keep the config file's assignment true\n"
	"  vmlinux-h                      print vmlinux.h for writing policies\n"
	"\n"
	"Options: -v, --verbose  show libbpf and verifier output\n"
	"         -j, --json     one JSON document on stdout instead of text\n"
	"                        (all but daemon, vmlinux-h and status --watch;\n"
	"                        also taken after the command, as --json)\n"
	"         -p, --pretty   the same, indented (-j implied)\n"
	"         -h, --help     help (also after a command)\n"
	"\n"
	"Exit status: 0 ok, 1 other error, 2 bad usage, 3 kernel without\n"
	"mglru_ext, 4 permission denied, 5 bad cgroup, 6 a policy is already\n"
	"attached there, 7 not an mglru_ext policy object, 8 unknown policy,\n"
	"9 verifier rejection, 10 bpffs not mounted, 11 bad knob, 12 nothing\n"
	"attached there, 13 policy ejected by the kernel, 14 policy refused\n"
	"to attach, 15 bad config file, 16 a compared command failed, 17 a\n"
	"path too long. `run` passes on the command's own status. Errors are\n"
	"one line on stderr, with -j too.\n";

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} cmds[] = {
	{ "list", cmd_list, list_usage },
	{ "load", cmd_load, load_usage },
	{ "unload", cmd_unload, unload_usage },
	{ "status", cmd_status, status_usage },
	{ "run", cmd_run, run_usage },
	{ "compare", cmd_compare, compare_usage },
	{ "apply", cmd_apply, apply_usage },
	{ "daemon", cmd_daemon, daemon_usage },
	{ "vmlinux-h", cmd_vmlinux_h, vmlinux_h_usage },
};

/*
 * Options before the command: -v, -j, -p, -h, alone or together (-jv),
 * and their long names.
 */
static int global_options(int argc, char **argv, int *i)
{
	static const char *const longs[][2] = {
		{ "--verbose", "-v" },
		{ "--json", "-j" },
		{ "--pretty", "-p" },
		{ "--help", "-h" },
	};
	const char *a;
	size_t l;

	for (; *i < argc && argv[*i][0] == '-'; ++*i) {
		a = argv[*i];
		for (l = 0; l < sizeof(longs) / sizeof(longs[0]); l++)
			if (!strcmp(a, longs[l][0]))
				a = longs[l][1];
		if (a[1] == '-' || !a[1] || a[1 + strspn(a + 1, "vjph")])
			return usage_error(main_usage, "unknown option '%s'",
					   argv[*i]);
		if (strchr(a, 'h')) {
			fputs(main_usage, stdout);
			return -1;
		}
		verbose |= !!strchr(a, 'v');
		json_pretty |= !!strchr(a, 'p');
		json_output |= json_pretty || strchr(a, 'j');
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t c;
	int i = 1, ret;

	ret = global_options(argc, argv, &i);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	log_setup(verbose);
	if (i == argc)
		return usage_error(main_usage, "no command given");
	if (!strcmp(argv[i], "help")) {
		fputs(main_usage, stdout);
		return EXIT_OK;
	}
	for (c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		if (strcmp(argv[i], cmds[c].name))
			continue;
		if (want_help(argc - i, argv + i)) {
			fputs(cmds[c].usage, stdout);
			return EXIT_OK;
		}
		optind = 1;
		opterr = 0; /* the command says what is wrong, in one line */
		/* the document the command built, printed once, at the end */
		return jw_end(cmds[c].fn(argc - i, argv + i));
	}
	return usage_error(main_usage, "unknown command '%s'", argv[i]);
}
