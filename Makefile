# SPDX-License-Identifier: GPL-2.0
#
# mglru_ext: BPF struct_ops policies for the MGLRU reclaim loop.
#
#   make demo    build what is missing, boot the VM, run the MADV_RANDOM
#                thrash workload under stock MGLRU and under thrash_aging
#   make check   host unit tests, then the VM selftests (TAP)
#
# Everything else is a step of those two; see README.md.

REPO := $(CURDIR)
BUILD := $(REPO)/build
JOBS ?= $(shell nproc)
KERNEL ?= patched

# The kernel the series applies to: 7.3, the primary base, or 6.12, the
# LTS backport (kernel-patches/BASE/). One build of the tools, the
# policies and mglructl serves both: they build against 7.3.
BASES := 7.3 6.12
BASE ?= 7.3
PRIMARY := 7.3
KSRC := $(BUILD)/src/linux-$(BASE)
KOBJ := $(BUILD)/kernel/$(BASE)/$(KERNEL)
bzimage = $(BUILD)/kernel/$(1)/$(2)/arch/x86/boot/bzImage
BZIMAGE := $(call bzimage,$(BASE),$(KERNEL))
BZIMAGE_PATCHED := $(call bzimage,$(BASE),patched)
BZIMAGE_STOCK := $(call bzimage,$(BASE),stock)
BZIMAGE_DEBUG := $(call bzimage,$(BASE),debug)
BZIMAGE_BENCH := $(call bzimage,$(BASE),bench)
VMLINUX_FROM ?= patched
VMLINUX := $(BUILD)/kernel/$(PRIMARY)/$(VMLINUX_FROM)/vmlinux
TOOLS_SRC := $(BUILD)/src/linux-$(PRIMARY)

TOOLS := $(BUILD)/tools
LIBBPF_A := $(TOOLS)/libbpf/libbpf.a
LIBBPF_INC := $(TOOLS)/libbpf/include
BPFTOOL := $(TOOLS)/bpftool/bpftool
VMLINUX_H := $(BUILD)/include/vmlinux.h

# Debian packages the build and the tests use. `make deps` installs the
# missing ones and is quick when they are all present.
DEB_PACKAGES := linux-source-6.12 xz-utils qemu-system-x86 clang llvm \
	dwarves libelf-dev zlib1g-dev libcap-dev flex bison bc libssl-dev cpio \
	rsync e2fsprogs fio util-linux dmsetup gnuplot-nox python3 python3-ply kmod \
	libclang-rt-14-dev libinih-dev libjson-c-dev pkg-config procps
DEPS_STAMP := $(BUILD)/.deps-$(shell echo $(DEB_PACKAGES) | sha256sum | cut -c1-12)

# What each kernel of a base is built from.
kernel_inputs = $(wildcard kernel-patches/$(1)/* kernel-patches/common/*) kernel-config/mglru_ext.config \
	kernel-config/linux-$(1).config kernel-config/mglru_ext-patched.config \
	scripts/build-kernel.sh
KERNEL_INPUTS := $(call kernel_inputs,$(BASE))
DEBUG_INPUTS := $(KERNEL_INPUTS) kernel-config/debug.config
BENCH_INPUTS := $(KERNEL_INPUTS) kernel-config/bench.config

POLICY_SRCS := $(wildcard bpf-policies/*.bpf.c)
TEST_POLICY_SRCS := $(wildcard selftests/policies/*.bpf.c)
POLICY_OBJS := $(patsubst bpf-policies/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(POLICY_SRCS))
TEST_POLICY_OBJS := $(patsubst selftests/policies/%.bpf.c,$(BUILD)/bpf/test/%.bpf.o,$(TEST_POLICY_SRCS))
BPF_HDRS := $(wildcard include/*.h) $(wildcard bpf-policies/*.h)

LOADER_SRCS := $(wildcard loader/*.c)
# The loader's library: everything but the commands. mglructl, the storm
# tool, the parser tests link it; the fuzzer links the same sources built
# with its instrumentation.
LOADER_LIB_SRCS := loader/fail.c loader/policy.c loader/kernel.c loader/cgroup.c \
	loader/parse.c loader/log.c loader/config.c loader/memcg.c
LOADER_CMD_SRCS := $(filter-out $(LOADER_LIB_SRCS),$(LOADER_SRCS))
LOADER_LIB := $(BUILD)/lib/libmglructl.a
FUZZ_LIB := $(BUILD)/lib/fuzz/libmglructl.a
LOADER_HDRS := $(wildcard loader/*.h) $(wildcard include/*.h)
MGLRUCTL := $(BUILD)/bin/mglructl
# Debian's libinih parses the config file, json-c writes --json.
LOADER_LIBS := -lelf -lz -linih -ljson-c
TEST_PARSE := $(BUILD)/bin/test_parse

CFLAGS_USER := -O2 -g -Wall -Wextra -Werror -std=gnu11 -I$(REPO)/include
# 7.3's vmlinux.h has tagged anonymous members (the kernel builds with
# -fms-extensions), as tools/sched_ext's policies find too.
BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_x86 -Wall -Werror \
	-fms-extensions -Wno-microsoft-anon-tag \
	-I$(BUILD)/include -I$(LIBBPF_INC) -I$(REPO)/include -I$(REPO)/bpf-policies

.PHONY: series series-diff results-check results-mark check-backport check-ready backport-ready kselftests-7.3 kselftests-6.12 deps-bench check-policies install uninstall sdk-stage kselftests all deps kernel kernel-stock kernel-debug kernel-bench tools policies loader workloads \
	check check-host check-vm check-debug demo bench vm-shell fuzz checkpatch check-series format clean

all: policies loader

# linux-source-7.3 is not in Debian 12's archive: make deps downloads it
# from trixie-backports (or sid) and unpacks it under build/deb/, without
# installing it (scripts/fetch-linux-source.sh).
# A first build needs room for both kernel trees, their kernels and the
# VM's root (about 12 GiB): checked before anything is fetched, unless the
# 7.3 tree is already there (a host that has built before).
deps: $(DEPS_STAMP)
$(DEPS_STAMP):
	@[ -d $(BUILD)/src/linux-$(PRIMARY)/.git ] || scripts/check-space.sh $(BUILD) 13
	@scripts/install-deps.sh $(DEB_PACKAGES)
	@scripts/fetch-linux-source.sh 7.3
	@mkdir -p $(BUILD) && touch $@

# What only make bench needs: the database workloads' servers and clients
# (db_readmostly, pgbench_scan) and the applications (rocksdb_getscan,
# ripgrep_search), kept out of deps so that make check does not fetch them.
BENCH_PACKAGES := mariadb-server-core mariadb-client-core sysbench postgresql-15 \
	rocksdb-tools ripgrep
deps-bench: $(DEPS_STAMP)
	@scripts/install-deps.sh $(BENCH_PACKAGES)

# The kernel: rebuilt only when the patch series, the config or the build
# script changes. The stamp's name carries a hash of those inputs, so an
# edit made while a build runs is not mistaken for built.
kernel_hash = $(shell cat $(1) | sha256sum | cut -c1-16)
kstamp_patched = $(BUILD)/kernel/$(1)/.patched-$(call kernel_hash,$(call kernel_inputs,$(1)))
KSTAMP_PATCHED := $(call kstamp_patched,$(BASE))
KSTAMP_DEBUG := $(BUILD)/kernel/$(BASE)/.debug-$(call kernel_hash,$(DEBUG_INPUTS))
KSTAMP_BENCH := $(BUILD)/kernel/$(BASE)/.bench-$(call kernel_hash,$(BENCH_INPUTS))
KSTAMP_STOCK := $(BUILD)/kernel/$(BASE)/.stock-$(call kernel_hash,kernel-config/mglru_ext.config \
	kernel-config/linux-$(BASE).config kernel-config/bench.config scripts/build-kernel.sh)
KSTAMP := $(KSTAMP_$(shell echo $(KERNEL) | tr a-z A-Z))
# The test kernels of both bases: make check boots both.
KSTAMP_PATCHED_ALL := $(foreach b,$(BASES),$(call kstamp_patched,$(b)))

kernel: $(KSTAMP_PATCHED)
kernel-stock: $(KSTAMP_STOCK)
kernel-debug: $(KSTAMP_DEBUG)
kernel-bench: $(KSTAMP_BENCH)

# A stamp's directory names its base, its name the flavor.
stamp_base = $(notdir $(patsubst %/,%,$(dir $(1))))
stamp_flavor = $(word 1,$(subst -, ,$(patsubst .%,%,$(notdir $(1)))))
$(KSTAMP_PATCHED_ALL) $(KSTAMP_DEBUG) $(KSTAMP_BENCH) $(KSTAMP_STOCK): | $(DEPS_STAMP)
	BASE=$(call stamp_base,$@) JOBS=$(JOBS) scripts/build-kernel.sh $(call stamp_flavor,$@)
	@rm -f $(dir $@).$(call stamp_flavor,$@)-*
	@touch $@

# The patched 7.3 tree alone: what libbpf and bpftool build from.
KSTAMP_SOURCE := $(BUILD)/src/.source-$(PRIMARY)-$(call kernel_hash,$(wildcard kernel-patches/$(PRIMARY)/* kernel-patches/common/*) \
	scripts/build-kernel.sh)
$(KSTAMP_SOURCE): | $(DEPS_STAMP)
	BASE=$(PRIMARY) scripts/build-kernel.sh source
	@rm -f $(BUILD)/src/.source-$(PRIMARY)-*
	@touch $@

# libbpf and bpftool from the same tree as the kernel; Debian's are too
# old. They need the patched tree, not a built kernel; vmlinux.h needs a
# built one, the test kernel unless VMLINUX_FROM says another (make demo
# builds only the benchmark kernel and takes its types from it).
tools: $(BPFTOOL) $(LIBBPF_A) $(VMLINUX_H)

$(LIBBPF_A): $(KSTAMP_SOURCE)
	@mkdir -p $(TOOLS)/libbpf
	$(MAKE) -s -C $(TOOLS_SRC)/tools/lib/bpf OUTPUT=$(TOOLS)/libbpf/ \
		$@ >/dev/null
	$(MAKE) -s -C $(TOOLS_SRC)/tools/lib/bpf OUTPUT=$(TOOLS)/libbpf/ \
		DESTDIR=$(TOOLS)/libbpf prefix= INCLUDEDIR=/include \
		install_headers >/dev/null
	@touch $@

$(BPFTOOL): $(KSTAMP_SOURCE)
	@mkdir -p $(TOOLS)/bpftool
	$(MAKE) -s -C $(TOOLS_SRC)/tools/bpf/bpftool OUTPUT=$(TOOLS)/bpftool/ \
		>/dev/null
	@touch $@

VMLINUX_STAMP := $(if $(filter patched,$(VMLINUX_FROM)),$(call kstamp_patched,$(PRIMARY)),$(BUILD)/kernel/$(PRIMARY)/.$(VMLINUX_FROM)-$(call kernel_hash,$(call kernel_inputs,$(PRIMARY)) kernel-config/$(VMLINUX_FROM).config))
$(VMLINUX_H): $(BPFTOOL) $(VMLINUX_STAMP)
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file $(VMLINUX) format c > $@.tmp && mv $@.tmp $@

# Policies: each .bpf.c compiles on its own; editing one rebuilds only it.
policies: $(POLICY_OBJS) $(TEST_POLICY_OBJS)

# A policy that includes another's file for its decisions (combined,
# isolation_throttle) depends on it: clang writes what each object read.
$(BUILD)/bpf/%.bpf.o: bpf-policies/%.bpf.c $(BPF_HDRS) $(VMLINUX_H) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	clang $(BPF_CFLAGS) -MMD -MF $@.d -c $< -o $@
-include $(wildcard $(BUILD)/bpf/*.bpf.o.d)

$(BUILD)/bpf/test/%.bpf.o: selftests/policies/%.bpf.c $(BPF_HDRS) $(VMLINUX_H) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	clang $(BPF_CFLAGS) -c $< -o $@

loader: $(MGLRUCTL)

WORKLOAD_BINS := $(BUILD)/bin/anon_touch $(BUILD)/bin/file_anon_mix $(BUILD)/bin/anon_file_lockstep \
	$(BUILD)/bin/reclaim_load $(BUILD)/bin/thrash_load

# A module that WARNs on load, for the VM runner's own tests, built out of
# tree against the patched kernel.
WARN_KO := $(BUILD)/kmod/$(BASE)/warn_on_load.ko

$(WARN_KO): selftests/kmod/warn_on_load.c selftests/kmod/Kbuild $(KSTAMP_PATCHED)
	@mkdir -p $(dir $@)
	cp selftests/kmod/warn_on_load.c selftests/kmod/Kbuild $(dir $@)
	$(MAKE) -s -C $(KSRC) O=$(BUILD)/kernel/$(BASE)/patched M=$(dir $@) modules

workloads: $(WORKLOAD_BINS)

# Test tools that drive the kernel through the loader's own code.
ATTACH_STORM := $(BUILD)/bin/test/attach_storm

$(ATTACH_STORM): selftests/tools/attach_storm.c $(LOADER_LIB) $(LOADER_HDRS) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -I$(LIBBPF_INC) -Iloader -o $@ $< $(LOADER_LIB) $(LIBBPF_A) $(LOADER_LIBS)

# Static: the bed copies it to tmpfs, and nothing of it is read over 9p
# while it is measured.
$(BUILD)/bin/reclaim_load: selftests/workloads/reclaim_load.c selftests/workloads/bed_load.h
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -static -o $@ $<

$(BUILD)/bin/thrash_load: selftests/workloads/thrash_load.c selftests/workloads/bed_load.h
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -static -o $@ $< -lm

$(BUILD)/bin/%: selftests/workloads/%.c
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -pthread -o $@ $<

$(BUILD)/obj/loader/%.o: loader/%.c $(LOADER_HDRS) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -I$(LIBBPF_INC) -c -o $@ $<

$(LOADER_LIB): $(patsubst loader/%.c,$(BUILD)/obj/loader/%.o,$(LOADER_LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(MGLRUCTL): $(LOADER_CMD_SRCS) $(LOADER_LIB) $(LOADER_HDRS) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -I$(LIBBPF_INC) -o $@ $(LOADER_CMD_SRCS) \
		$(LOADER_LIB) $(LIBBPF_A) $(LOADER_LIBS)

# Tests.
# On 6.12, the backport: the boot, hook, shipped-policy and kselftest
# suites, with the same policy objects and mglructl as on 7.3.
BACKPORT_TESTS := test_boot test_hooks test_shipped test_kselftests

# What CI runs: every suite on 7.3, the primary base, then BACKPORT_TESTS
# on 6.12. selftests/check.sh builds what the 7.3 suites need
# (check-ready) and, beside it and the 7.3 suites at the lowest CPU
# priority, the 6.12 kernel and then the rest of the backport
# (backport-ready).
check: $(DEPS_STAMP)
	@BACKPORT_TESTS="$(BACKPORT_TESTS)" selftests/check.sh

check-ready: $(call kstamp_patched,$(PRIMARY)) policies loader workloads $(BPFTOOL) $(TEST_PARSE) \
		$(BUILD)/kmod/$(PRIMARY)/warn_on_load.ko $(ATTACH_STORM) sdk-stage kselftests-$(PRIMARY)

# What the backport's suites need beyond what check built for 7.3: its
# kernel (a dependency of its kselftests) and its kselftests.
backport-ready: kselftests-6.12

check-backport:
	@$(MAKE) --no-print-directory BASE=6.12 check-vm TESTS="$(BACKPORT_TESTS)"

$(TEST_PARSE): selftests/host/test_parse.c $(LOADER_LIB) $(LOADER_HDRS) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	gcc $(CFLAGS_USER) -I$(LIBBPF_INC) -o $@ $< $(LOADER_LIB) $(LIBBPF_A) $(LOADER_LIBS)

# User-space and BPF C in the kernel's style (the style test checks it).
format: $(KSTAMP_SOURCE)
	clang-format -i --style=file:$(TOOLS_SRC)/.clang-format $$(scripts/c-sources.sh)

check-host: $(TEST_PARSE) loader policies
	@selftests/host/run.sh

# Which sections of docs/results.md were measured on inputs that have
# changed since (bench/inputs.sh). It only prints: no check writes to a
# tracked file. results-mark writes the verdict at the top of each
# section.
results-check: policies
	@bench/results-check.sh

results-mark: policies
	@bench/results-check.sh --mark

check-vm: $(KSTAMP) policies loader workloads $(BPFTOOL) $(WARN_KO) $(ATTACH_STORM) sdk-stage kselftests-$(BASE)
	@selftests/run-vm-tests.sh --base $(BASE) --kernel $(BZIMAGE) $(TESTS)

# Each policy against stock on its seed's workload, on the bed and the
# benchmark kernel (selftests/vm/test_policies.sh). Not in check: longer
# than its budget.
check-policies: $(KSTAMP_BENCH) policies loader workloads $(BPFTOOL)
	@selftests/run-vm-tests.sh --base $(BASE) --kernel $(BZIMAGE_BENCH) --guest-only test_policies

# The safety tests on the KASAN + lockdep + DEBUG_LIST/VM kernel: slower
# than check, not run by CI. Under TCG that kernel is so slow that the
# stock watchdog limits fire while it boots (soft lockups in stop_machine
# during ACPI init): the limits syzbot uses for its debug VMs. no5lvl:
# QEMU's -cpu max offers 5-level paging, and with it KASAN reported a
# wild-memory-access in the first interrupt of the boot (handle_edge_irq,
# 1.4 s in, long before anything of ours runs).
DEBUG_APPEND := watchdog_thresh=55 rcupdate.rcu_cpu_stall_timeout=100 \
	workqueue.watchdog_thresh=140 no5lvl
check-debug: $(KSTAMP_DEBUG) policies loader workloads $(BPFTOOL) $(ATTACH_STORM)
	@VM_TIMEOUT=5400 VM_APPEND="$(DEBUG_APPEND)" selftests/run-vm-tests.sh --base $(BASE) --kernel $(BZIMAGE_DEBUG) --guest-only \
		$(or $(TESTS),test_boot test_hooks test_hardening)

vm-shell: $(KSTAMP) policies loader workloads $(BPFTOOL)
	@selftests/vm-run.sh --kernel $(BZIMAGE) --shell

# One kernel: the benchmark kernel, with vmlinux.h from it.
demo:
	@$(MAKE) -s VMLINUX_FROM=bench kernel-bench policies loader workloads
	@bench/demo.sh

# Not part of check: long, and it prints figures rather than verdicts.
bench: deps-bench $(KSTAMP_BENCH) $(KSTAMP_STOCK) policies loader workloads
	@BASE=$(BASE) bench/bench.sh $(BENCH)

# mglructl, the shipped policies (where an installed mglructl looks for
# them), the SDK for writing policies out of tree (headers with libbpf's
# BPF-side ones, a pkg-config file), the systemd unit and an example
# config. PREFIX and DESTDIR as usual.
PREFIX ?= /usr/local
SBINDIR := $(PREFIX)/sbin
POLICYDIR := $(PREFIX)/lib/mglru_ext/policies
SDKDIR := $(PREFIX)/include/mglru_ext
PCDIR := $(PREFIX)/lib/pkgconfig
UNITDIR ?= $(PREFIX)/lib/systemd/system
DOCDIR := $(PREFIX)/share/doc/mglru_ext
LIBBPF_BPF_HDRS := bpf_helpers.h bpf_helper_defs.h bpf_tracing.h bpf_core_read.h bpf_endian.h

install: $(MGLRUCTL) $(POLICY_OBJS)
	install -D -m 755 $(MGLRUCTL) $(DESTDIR)$(SBINDIR)/mglructl
	install -d $(DESTDIR)$(POLICYDIR) $(DESTDIR)$(SDKDIR)/bpf
	install -m 644 $(POLICY_OBJS) $(DESTDIR)$(POLICYDIR)/
	install -m 644 include/mglru_ext_policy.h bpf-policies/policy.bpf.h $(DESTDIR)$(SDKDIR)/
	install -m 644 $(addprefix $(LIBBPF_INC)/bpf/,$(LIBBPF_BPF_HDRS)) $(DESTDIR)$(SDKDIR)/bpf/
	install -d $(DESTDIR)$(PCDIR) $(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR)
	sed 's|@PREFIX@|$(PREFIX)|' dist/mglru_ext.pc.in >$(DESTDIR)$(PCDIR)/mglru_ext.pc
	sed 's|@SBINDIR@|$(SBINDIR)|' dist/mglru_ext.service.in >$(DESTDIR)$(UNITDIR)/mglru_ext.service
	install -m 644 dist/policies.conf.example $(DESTDIR)$(DOCDIR)/

# An install as a package would lay it out, for the VM test that builds a
# policy against the installed SDK: the guest copies it out of the
# checkout (its tree is read-only there, and nothing must come from it).
SDK_STAGE := $(BUILD)/sdk
# The series' own selftests (tools/testing/selftests/mglru_ext, its last
# patch), built here against the test kernel for the guest to run
# (selftests/vm/test_kselftests.sh): run_tests there, with the same
# variables, finds them up to date and only runs them.
kselftest_dir = $(BUILD)/src/linux-$(1)/tools/testing/selftests/mglru_ext
build_kselftests = MAKEFLAGS= $(MAKE) -s -C $(call kselftest_dir,$(1)) \
	OUTPUT=$(call kselftest_dir,$(1)) VMLINUX_BTF=$(BUILD)/kernel/$(1)/patched/vmlinux \
	BPFTOOL=$(BPFTOOL)
kselftests: $(addprefix kselftests-,$(BASES))
kselftests-7.3: $(call kstamp_patched,7.3) $(BPFTOOL)
	$(call build_kselftests,7.3)
kselftests-6.12: $(call kstamp_patched,6.12) $(BPFTOOL)
	$(call build_kselftests,6.12)

sdk-stage: $(MGLRUCTL) $(POLICY_OBJS)
	rm -rf $(SDK_STAGE)
	$(MAKE) -s install DESTDIR=$(SDK_STAGE) PREFIX=/usr

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/mglructl $(DESTDIR)$(PCDIR)/mglru_ext.pc \
		$(DESTDIR)$(UNITDIR)/mglru_ext.service
	rm -rf $(DESTDIR)$(POLICYDIR) $(DESTDIR)$(SDKDIR) $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(PREFIX)/lib/mglru_ext 2>/dev/null

# The postable series of a base (numbered, with its cover letter), from
# its applied tree: what a reviewer reads and checkpatch checks.
series: $(KSTAMP_SOURCE) $(if $(filter $(PRIMARY),$(BASE)),,$(BUILD)/src/.source-$(BASE))
	@python3 scripts/series.py postable $(BASE) $(BUILD)/series/$(BASE)

# The tree of a base other than the primary, applied alone.
$(BUILD)/src/.source-%: $(wildcard kernel-patches/*/*) scripts/build-kernel.sh | $(DEPS_STAMP)
	BASE=$* scripts/build-kernel.sh source
	@touch $@

# What differs between the two bases' series, patch by patch.
series-diff: $(KSTAMP_SOURCE) $(BUILD)/src/.source-6.12
	@python3 scripts/series.py diff

checkpatch: $(KSTAMP_SOURCE) $(BUILD)/src/.source-6.12
	@for b in $(BASES); do $(MAKE) -s --no-print-directory BASE=$$b series >/dev/null && \
		BASE=$$b scripts/checkpatch-series.sh || exit 1; done

# libFuzzer over the loader's parsers, for FUZZ_SECONDS (default 60).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := fuzz_parse fuzz_config
FUZZ_BINS := $(addprefix $(BUILD)/bin/,$(FUZZ_TARGETS))
FUZZ_CFLAGS := -g -O1 -I$(REPO)/include -I$(LIBBPF_INC)

$(BUILD)/obj/fuzz/%.o: loader/%.c $(LOADER_HDRS) $(LIBBPF_A)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<

$(FUZZ_LIB): $(patsubst loader/%.c,$(BUILD)/obj/fuzz/%.o,$(LOADER_LIB_SRCS))
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/fuzz_%: selftests/fuzz/fuzz_%.c $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB) \
		$(LIBBPF_A) $(LOADER_LIBS)

# Each target for FUZZ_SECONDS, from its seed corpus.
fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(BUILD)/fuzz/$$t && cp -n selftests/fuzz/corpus/$$t/* $(BUILD)/fuzz/$$t/ && \
		$(BUILD)/bin/$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(BUILD)/fuzz/$$t- \
			$(BUILD)/fuzz/$$t || exit 1; \
	done

# Every prefix of the series builds, with CONFIG_MGLRU_EXT on and off.
check-series: $(KSTAMP_PATCHED_ALL)
	@for b in $(BASES); do BASE=$$b scripts/build-each-patch.sh || exit 1; done

clean:
	rm -rf $(BUILD)/bin $(BUILD)/bpf $(BUILD)/vm $(BUILD)/tools $(BUILD)/obj $(BUILD)/lib \
		$(BUILD)/include $(BUILD)/kernel
