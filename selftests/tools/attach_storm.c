// SPDX-License-Identifier: GPL-2.0
/*
 * attach_storm: attach and detach one policy object on several cgroups in a
 * tight loop, for the hardening tests. mglructl spends most of its time in
 * the verifier, so a storm of thousands of cycles through it would mostly
 * measure the verifier; here each cgroup's copy is loaded once and only the
 * struct_ops link is created and released, the path that races reclaim.
 *
 * Two ways to let go of a link, alternating by default:
 *   detach  BPF_LINK_DETACH, then close: the policy is gone on return
 *   close   close only: the last reference is dropped from a work item, so
 *           the next attach may see the old policy still there (EEXIST) and
 *           retries until it is gone
 *
 * Usage: attach_storm [--cycles N] [--mode detach|close|both] OBJ CGROUP...
 * Prints one summary line; exits 0 when every cycle attached and released.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "errors.h"
#include "kernel.h"
#include "log.h"
#include "policy.h"

#define MAX_CGROUPS 16
/* how long a closed link may take to go away before the next attach */
#define EEXIST_RETRY_MS 5000

/* Attach, retrying while a closed link of the previous cycle lingers. */
static int attach_retrying(struct policy *p, const char *cg,
			   struct bpf_link **link, unsigned long *retries)
{
	int waited_ms = 0;

	for (;;) {
		*link = bpf_map__attach_struct_ops(p->ops);
		if (*link)
			return 0;
		if (errno != EEXIST || waited_ms >= EEXIST_RETRY_MS)
			return fail(EXIT_FAILURE_OTHER, "attaching to %s: %s",
				    cg, strerror(errno));
		(*retries)++;
		usleep(1000);
		waited_ms++;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cycles", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'm' },
		{}
	};
	struct policy pol[MAX_CGROUPS];
	unsigned long cycles = 1000, retries = 0, done = 0;
	const char *mode = "both";
	int nr, i, c, ret;
	double start;

	fail_program = "attach_storm";

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cycles = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			mode = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (strcmp(mode, "detach") && strcmp(mode, "close") &&
	    strcmp(mode, "both"))
		return fail(EXIT_USAGE, "--mode must be detach, close or both");
	nr = argc - optind - 1;
	if (nr < 1 || nr > MAX_CGROUPS)
		return fail(EXIT_USAGE,
			    "usage: attach_storm [--cycles N] [--mode "
			    "detach|close|both] OBJ CGROUP...");
	log_setup(false);

	for (i = 0; i < nr; i++) {
		const char *cg = argv[optind + 1 + i];
		char abs[PATH_MAX];
		uint64_t id;

		if (cgroup_resolve(cg, abs, sizeof(abs), &id))
			return fail(EXIT_BAD_CGROUP, "no cgroup %s", cg);
		ret = policy_open(&pol[i], argv[optind]);
		if (!ret)
			ret = policy_set_cgroup(&pol[i], id);
		if (!ret)
			ret = policy_load(&pol[i]);
		if (ret)
			return ret;
		bpf_map__set_autoattach(pol[i].ops, false);
	}

	start = monotonic_s();
	for (done = 0; done < cycles; done++) {
		struct bpf_link *links[MAX_CGROUPS];
		bool detach = !strcmp(mode, "detach") ||
			      (!strcmp(mode, "both") && done % 2);

		for (i = 0; i < nr; i++) {
			ret = attach_retrying(&pol[i], argv[optind + 1 + i],
					      &links[i], &retries);
			if (ret)
				goto out;
		}
		for (i = 0; i < nr; i++) {
			if (detach && bpf_link__detach(links[i])) {
				ret = fail(EXIT_FAILURE_OTHER,
					   "detaching from %s: %s",
					   argv[optind + 1 + i],
					   strerror(errno));
				goto out;
			}
			bpf_link__destroy(links[i]);
		}
	}
	ret = 0;
out:
	printf("attach_storm: %lu cycles on %d cgroups in %.1f s, %lu EEXIST retries\n",
	       done, nr, monotonic_s() - start, retries);
	for (i = 0; i < nr; i++)
		policy_close(&pol[i]);
	return ret;
}
