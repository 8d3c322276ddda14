#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh: boot the mglru_ext test kernel in QEMU, run one command in the
# guest and return its exit status.
#
# The guest's root file system is the host's, shared read-only over
# virtio-9p, so the checkout is visible in the guest at the same path and
# nothing has to be copied in. Writable places in the guest are tmpfs
# (see vm-init.sh). Results come back through a second, writable 9p share
# mounted at /run/results in the guest.
#
# Usage: vm-run.sh [options] -- COMMAND [ARGS...]
#        vm-run.sh [options] --shell
#
# Options:
#   --kernel FILE     bzImage to boot (default: build/kernel/7.3/patched/...)
#   --timeout SECS    kill the guest after SECS seconds (default 900)
#   --mem SIZE        guest memory, QEMU syntax (default 1G)
#   --smp N           guest CPUs (default 2 on the wall clock, 1 on the
#                     instruction clock; or $VM_SMP)
#   --results DIR     host directory shared writable as /run/results
#   --log FILE        console log (default: RESULTS/console.log)
#   --quiet           don't stream the console while the guest runs
#   --allow-warnings  don't fail on kernel warnings in the log (runner tests)
#   --shell           interactive shell on the console instead of a command
#   --clock wall|instructions
#                     how guest time runs (default wall, or $VM_CLOCK).
#                     instructions: QEMU's instruction clock, every
#                     virtual nanosecond one guest instruction
#                     (2^VM_ICOUNT_SHIFT ns with VM_ICOUNT_SHIFT, default 0).
#                     With --smp N the N vCPUs run round-robin on one host
#                     thread, each in turn until the next timer deadline
#                     or an I/O exit (docs/bed.md),
#                     with the host's timing kept out of the guest: no
#                     host-backed disks (scratch and swap are zram in the
#                     guest), no RDRAND/RDSEED, no KASLR, no user ASLR.
#                     Identical work then takes the same virtual time
#                     whatever the host is doing: the benchmarks' bed,
#                     see docs/bed.md.
#
# Environment: VM_ACCEL=tcg|kvm|auto (default tcg; auto probes KVM once).
#
# Exit status: the guest command's status; 124 on timeout; 125 when the
# guest log shows a kernel bug; 126 when the guest died before reporting.
set -u

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kernel=$repo/build/kernel/7.3/patched/arch/x86/boot/bzImage
timeout=900
mem=1G
smp=2
results=
log=
quiet=0
allow_warnings=0
shell=0
clock=${VM_CLOCK:-wall}
smp_given=0
if [ -n "${VM_SMP:-}" ]; then
	smp=$VM_SMP
	smp_given=1
fi

die() {
	echo "vm-run: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; smp_given=1; shift 2 ;;
	--results) results=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	--allow-warnings) allow_warnings=1; shift ;;
	--shell) shell=1; shift ;;
	--clock) clock=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown option '$1' (see the header of $0)" ;;
	esac
done
case $clock in
wall | instructions) ;;
*) die "--clock must be wall or instructions, not '$clock'" ;;
esac
case $smp in
[1-8]) ;;
*) die "--smp must be 1 to 8 (CONFIG_NR_CPUS), not '$smp'" ;;
esac
# The instruction clock runs one vCPU unless told otherwise: several run
# round-robin in one host thread (thread=single below), so they cost no
# more host cores and interleave by the instruction count, not host time.
[ "$clock" = wall ] || [ $smp_given = 1 ] || smp=1
[ $shell = 1 ] || [ $# -gt 0 ] || die "no guest command given (use -- CMD or --shell)"
[ -r "$kernel" ] || die "no kernel at $kernel: run 'make kernel' first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run 'make deps'"

if [ -z "$results" ]; then
	mkdir -p "$repo/build/vm"
	results=$(mktemp -d "$repo/build/vm/run.XXXXXX")
fi
mkdir -p "$results"
results=$(cd "$results" && pwd)
[ -n "$log" ] || log=$results/console.log
rm -f "$results/.rc" "$log"

# The command line is written to a file the guest init reads, quoted so
# that arguments with spaces survive.
if [ $shell = 1 ]; then
	echo "__shell__" >"$results/.cmd"
else
	printf '%q ' "$@" >"$results/.cmd"
	echo >>"$results/.cmd"
fi

# Scratch disks: sparse images, one ext4 file system for page-cache
# workloads and one swap area. Created per run so every run starts clean.
# On the instruction clock they are zram devices in the guest instead
# (vm-init.sh): a host-backed disk completes in host time.
scratch=$results/scratch.img
swapimg=$results/swap.img
disks=()
if [ "$clock" = wall ]; then
	truncate -s 4G "$scratch"
	mkfs.ext4 -q -F -E lazy_itable_init=1,lazy_journal_init=1 "$scratch" >/dev/null ||
		die "mkfs.ext4 of the scratch disk failed"
	fallocate -l 1G "$swapimg" && chmod 600 "$swapimg" ||
		die "cannot allocate the swap disk"
	mkswap "$swapimg" >/dev/null 2>&1 || die "mkswap of the swap disk failed"
	disks=(-drive file="$scratch",format=raw,if=virtio,cache=unsafe
		-drive file="$swapimg",format=raw,if=virtio,cache=unsafe)
fi

accel=${VM_ACCEL:-tcg}
if [ "$accel" = auto ]; then
	accel=$("$repo/selftests/kvm-probe.sh" "$kernel")
fi
case $accel in
tcg) accel_opts=(-accel tcg,thread=multi -cpu max) ;;
kvm) accel_opts=(-accel kvm -cpu host) ;;
*) die "VM_ACCEL must be tcg, kvm or auto, not '$accel'" ;;
esac
clock_append=
if [ "$clock" = instructions ]; then
	[ "$accel" = tcg ] || die "--clock instructions needs TCG, not VM_ACCEL=$accel"
	shift_n=${VM_ICOUNT_SHIFT:-0}
	case $shift_n in
	[0-9] | 10) ;;
	*) die "VM_ICOUNT_SHIFT must be 0 to 10, not '$shift_n'" ;;
	esac
	# sleep=off: an idle guest jumps to its next timer instead of
	# waiting for it in host time; align=off: never slowed to host time.
	# RDRAND/RDSEED would hand the guest host randomness; KASLR and user
	# ASLR would lay out every boot and every process differently.
	accel_opts=(-accel tcg,thread=single -cpu max,-rdrand,-rdseed
		-icount shift="$shift_n",sleep=off,align=off)
	clock_append="nokaslr norandmaps zram.num_devices=3 MGLRU_CLOCK=instructions MGLRU_SMP=$smp"
fi

append="console=ttyS0 loglevel=5 panic=-1 root=hostroot rootfstype=9p"
append+=" rootflags=trans=virtio,version=9p2000.L,msize=262144 ro"
append+=" init=$repo/selftests/vm-init.sh MGLRU_REPO=$repo"
append+=" transparent_hugepage=never"
# VM_APPEND: more kernel parameters, e.g. the debug kernel's longer
# watchdog limits (under TCG a KASAN kernel is ~10x slower than real)
append+=" ${VM_APPEND:-} $clock_append"

qemu=(qemu-system-x86_64 "${accel_opts[@]}" -m "$mem" -smp "$smp"
	-kernel "$kernel" -append "$append" -no-reboot -nodefaults
	-display none -vga none
	-fsdev local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev local,id=results,path="$results",security_model=none,multidevs=remap
	-device virtio-9p-pci,fsdev=results,mount_tag=results
	"${disks[@]}")

if [ $shell = 1 ]; then
	"${qemu[@]}" -chardev stdio,id=con,signal=off,logfile="$log" -serial chardev:con
	rm -f "$scratch" "$swapimg"
	exit 0
fi

"${qemu[@]}" -serial file:"$log" -pidfile "$results/qemu.pid" </dev/null &
qemu_pid=$!
tail_pid=
if [ $quiet = 0 ]; then
	tail -n +1 -F "$log" 2>/dev/null &
	tail_pid=$!
fi

# Wait for the guest to power off, or kill it when the time is up. Only our
# own QEMU is killed, by the PID we started.
deadline=$((SECONDS + timeout))
timed_out=0
while kill -0 "$qemu_pid" 2>/dev/null; do
	if [ $SECONDS -ge $deadline ]; then
		timed_out=1
		kill "$qemu_pid" 2>/dev/null
		sleep 2
		kill -9 "$qemu_pid" 2>/dev/null
		break
	fi
	sleep 1
done
wait "$qemu_pid" 2>/dev/null
if [ -n "$tail_pid" ]; then
	sleep 0.5
	kill "$tail_pid" 2>/dev/null
	wait "$tail_pid" 2>/dev/null
fi
rm -f "$scratch" "$swapimg"

# A kernel bug is a failure whatever the command said. A bare call trace
# is not one: the OOM killer prints one, and OOM kills are what some
# workloads measure; every report that is a bug has its own line below.
bad='BUG:|WARNING:|Oops|possible circular locking|possible recursive locking'
bad+='|detected stalls on CPUs|self-detected stall'
bad+='|inconsistent lock state|INFO: task .* blocked for more than|soft lockup|hard LOCKUP'
bad+='|Kernel panic|turning off the locking correctness validator|UBSAN:|KASAN:'
if [ $allow_warnings = 0 ] && grep -qE "$bad" "$log"; then
	echo "vm-run: kernel problem in the guest log ($log):" >&2
	grep -m 5 -E "$bad" "$log" | sed 's/^/vm-run:   /' >&2
	exit 125
fi
if [ $timed_out = 1 ]; then
	echo "vm-run: guest timed out after ${timeout}s; log: $log" >&2
	exit 124
fi
if [ ! -s "$results/.rc" ]; then
	echo "vm-run: guest stopped without reporting a status; log: $log" >&2
	exit 126
fi
rc=$(cat "$results/.rc")
[ "$rc" = 0 ] || echo "vm-run: guest command exited with status $rc; log: $log" >&2
exit "$rc"
