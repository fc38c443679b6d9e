#!/bin/bash
# The re-exec without address randomization, as run, reproduce and
# calibrate do it: started through the dynamic loader (/proc/self/exe is
# then the loader) the run goes on with ASLR and says so; --keep-aslr is
# read by the command's parser, so an abbreviation getopt_long() accepts
# keeps it too; the re-executed process keeps its name (comm) and the
# argv[0] it was given. Where this machine has ASLR off, or this shell
# runs under setarch -R, there is no re-exec and only the exit statuses
# are checked.
set -u
pcpbench=$(realpath "$1")
src=$2
. "$(dirname "$0")/../lib.sh"
cd "$src" || exit 1
export PCPBENCH_LOCK_DIR=$tmp

short=(--quick --runs 1 --set run.duration_ms=50 --set run.warmup_ms=10 --set run.designs=local_lock)
aslr() { # RESULT-DIR: context.aslr of the one result under it
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["aslr"])' \
		"$(ls -d "$1"/*/ 2>/dev/null | head -1)result.json" 2>/dev/null
}
# whether a run would re-execute itself: randomize_va_space on, no inherited ADDR_NO_RANDOMIZE
reexecs=1
[ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 0)" != 0 ] || reexecs=0
[ $((0x$(cat /proc/self/personality) & 0x0040000)) -eq 0 ] || reexecs=0
[ "$reexecs" -eq 1 ] || echo "ASLR is off here: no re-exec to check, exit statuses only"

# the loader named as the command: its PT_INTERP
interp=$(python3 - "$pcpbench" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb")
h = f.read(64)
phoff, = struct.unpack_from("<Q", h, 32)
phentsize, phnum = struct.unpack_from("<HH", h, 54)
for i in range(phnum):
    f.seek(phoff + i * phentsize)
    typ, _, off, _, _, size = struct.unpack("<IIQQQQ", f.read(40))
    if typ == 3:
        f.seek(off)
        print(f.read(size).rstrip(b"\0").decode())
PY
)
if [ -n "$interp" ] && [ -x "$interp" ]; then
	expect_rc 0 "$interp" "$pcpbench" run "${short[@]}" --out "$tmp/loader" scenarios/default.scn
	if [ "$reexecs" -eq 1 ]; then
		a=$(aslr "$tmp/loader")
		[ "$a" = "kept: /proc/self/exe is not this program (a loader started it)" ] && ok ||
			bad "through $interp: aslr '$a'"
		grep -q "warning: aslr: on .*(this process: kept: /proc/self/exe is not this program" \
			"$tmp/err" && ok || bad "through $interp: not warned: $(cat "$tmp/err")"
	fi
	expect_rc 0 "$interp" "$pcpbench" run --dry-run scenarios/default.scn
else
	echo "no program interpreter: the loader's start not checked"
fi

# --keep is --keep-aslr to getopt_long(), and so to the re-exec; --set's
# value is no option
expect_rc 0 "$pcpbench" run "${short[@]}" --keep --out "$tmp/keep" scenarios/default.scn
a=$(aslr "$tmp/keep")
[ "$a" = "kept (--keep-aslr)" ] && ok || bad "run --keep: aslr '$a'"
expect_rc 2 "$pcpbench" run --dry-run --set --keep-aslr scenarios/default.scn
expect_rc 0 "$pcpbench" run "${short[@]}" --out "$tmp/nokeep" scenarios/default.scn
a=$(aslr "$tmp/nokeep")
if [ "$reexecs" -eq 1 ]; then
	[ "$a" = "disabled by re-exec" ] && ok || bad "run: aslr '$a'"
fi

# the name: comm is pcpbench's once the new image runs (its environment
# holds PCPBENCH_ASLR_REEXEC), argv[0] the one given
if [ "$reexecs" -eq 1 ]; then
	"$pcpbench" run --runs 2 --set run.duration_ms=400 --set run.warmup_ms=10 \
		--set run.designs=local_lock --out "$tmp/name" scenarios/default.scn \
		>/dev/null 2>"$tmp/name.err" &
	pid=$!
	seen= argv0=
	for _ in $(seq 200); do
		[ -r "/proc/$pid/environ" ] || break
		if { tr '\0' '\n' <"/proc/$pid/environ"; } 2>/dev/null | grep -q '^PCPBENCH_ASLR_REEXEC='; then
			c=$(cat "/proc/$pid/comm" 2>/dev/null)
			a0=$({ tr '\0' '\n' <"/proc/$pid/cmdline"; } 2>/dev/null | head -1)
			[ -n "$c" ] && seen=$c
			[ -n "$a0" ] && argv0=$a0
			[ "$seen" = pcpbench ] && break
		fi
		sleep 0.05
	done
	wait "$pid" && ok || bad "the run whose name was read failed: $(cat "$tmp/name.err")"
	[ "$seen" = pcpbench ] && ok || bad "after the re-exec the process is named '$seen'"
	[ "$argv0" = "$pcpbench" ] && ok || bad "after the re-exec argv[0] is '$argv0'"
fi

summary aslr
