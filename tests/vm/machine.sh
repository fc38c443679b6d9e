#!/bin/bash
# The rig and the machine it makes: scripts/vm.sh's refusals (bad
# options, no qemu, a kernel that does not boot, a guest past its
# timeout, none leaving a qemu behind; a boot stuck or panicking before
# its init ran booted once more); then one guest whose info, check
# and cpus read four nodes, CPUs 6-7 isolated and nohz_full, and call the
# machine emulated, check untrustworthy; its command's status comes back.
. "$(dirname "$0")/lib.sh"
vm=$src/scripts/vm.sh

# refused before any boot, each with its status
expect_rc 2 "$vm" --pcpbench "$pcpbench" --nodes 3 --cpus 8 -- true
grep -q "does not split evenly over 3 nodes" "$tmp/err" && ok || bad "uneven nodes: $(cat "$tmp/err")"
expect_rc 2 "$vm" --frobnicate
expect_rc 2 "$vm" --pcpbench "$pcpbench" --isolate 6-x -- true
expect_rc 2 "$vm" --pcpbench "$tmp/none" -- true
expect_rc 2 "$vm" --pcpbench "$pcpbench"
"$vm" --abi >"$tmp/abi" 2>"$tmp/err"
[ $? -eq 77 ] && { cat "$tmp/err"; exit 77; }
grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+-[0-9]+$' "$tmp/abi" && ok || bad "--abi: '$(cat "$tmp/abi")'"
expect_rc 77 env PCPBENCH_VM_QEMU=qemu-none "$vm" --pcpbench "$pcpbench" -- true
grep -q "no qemu-none" "$tmp/err" && ok || bad "no qemu: $(cat "$tmp/err")"

# a kernel that is no kernel: qemu refuses it, the rig says so
abi=$(cat "$tmp/abi")
cache=${PCPBENCH_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pcpbench/vm}
"$vm" --fetch 2>"$tmp/err" || { cat "$tmp/err"; exit 77; }
mkdir -p "$tmp/cache/broken/boot"
ln -s "$cache/$abi/lib" "$tmp/cache/broken/lib"
echo "no kernel" >"$tmp/cache/broken/boot/vmlinuz-broken-cloud-amd64"
mkdir -p "$tmp/vmtmp"
expect_rc 125 env PCPBENCH_VM_CACHE="$tmp/cache" PCPBENCH_VM_ABI=broken TMPDIR="$tmp/vmtmp" \
	"$vm" --pcpbench "$pcpbench" --timeout 60 -- true
grep -q "the guest did not boot: qemu exit 1" "$tmp/err" && ok ||
	bad "a broken kernel: $(cat "$tmp/err")"

# a guest whose init is not up by the boot limit is stopped and booted once
# more; stuck again, it did not boot
expect_rc 125 env PCPBENCH_VM_BOOT_LIMIT=1 TMPDIR="$tmp/vmtmp" "$vm" --pcpbench "$pcpbench" \
	--timeout 60 -- true
[ "$(grep -c "the guest did not reach its init in 1 s; its console's last lines:" "$tmp/err")" = 2 ] &&
	grep -q "booting the guest once more" "$tmp/err" &&
	grep -q "the guest did not boot: .* before its init ran" "$tmp/err" && ok ||
	bad "a boot stuck twice: $(cat "$tmp/err")"
expect_rc 2 env PCPBENCH_VM_BOOT_LIMIT=soon "$vm" --pcpbench "$pcpbench" -- true
# a kernel that panics before its init ran (here: no init to run) is booted
# once more, its console said; panicking again, it did not boot
expect_rc 125 env PCPBENCH_VM_APPEND="rdinit=/pcb-none init=/pcb-none" TMPDIR="$tmp/vmtmp" \
	"$vm" --pcpbench "$pcpbench" --timeout 60 -- true
[ "$(grep -c "the guest's kernel panicked before its init ran; its console's last lines:" \
	"$tmp/err")" = 1 ] && [ "$(grep -c 'Kernel panic' "$tmp/err")" = 2 ] &&
	grep -q "booting the guest once more" "$tmp/err" &&
	grep -q "the guest did not boot: .* before its init ran" "$tmp/err" && ok ||
	bad "a boot that panics twice: $(cat "$tmp/err")"

# a guest that runs past its timeout is stopped; nothing of it is left.
# Which stops it depends on how fast it boots: its own watchdog (10 s
# after init starts, the command's threads printed) or the rig's (20 s)
expect_rc 124 env TMPDIR="$tmp/vmtmp" "$vm" --pcpbench "$pcpbench" --timeout 20 -- sleep 600
grep -Eq "ran past --timeout 20 s|the command ran past its time in the guest and was stopped" \
	"$tmp/err" && ok || bad "timeout: $(cat "$tmp/err")"
# where the rig stops it, what the console last said comes first
if grep -q "ran past --timeout 20 s" "$tmp/err"; then
	grep -q "runs past --timeout 20 s; its console's last lines:" "$tmp/err" && ok ||
		bad "stopped by the rig with no console lines first: $(cat "$tmp/err")"
fi
pgrep -f "$tmp/vmtmp" >/dev/null && bad "a qemu of the rig is left: $(pgrep -af "$tmp/vmtmp")" || ok
[ -z "$(ls -A "$tmp/vmtmp")" ] && ok || bad "the rig left $(ls "$tmp/vmtmp")"

cat >"$tmp/guest.sh" <<'EOF'
pcpbench info >results/info.txt 2>&1
pcpbench check >results/check.txt 2>&1
echo $? >results/check.rc
pcpbench check --cpus 6-7 >results/check67.txt 2>&1
pcpbench cpus node:0 node:3 isolated housekeeping >results/cpus.txt 2>results/cpus.err
exit 3
EOF
vm_run "$tmp/guest.sh"
[ "$vm_rc" -eq 3 ] && ok || bad "the command's status: $vm_rc, not 3: $(tail -n 20 "$tmp/vm.err")"

has_line info.txt '^  NUMA nodes: +4$' "info: four nodes"
for n in 0 1 2 3; do
	has_line info.txt "^    node$n +$((2 * n))-$((2 * n + 1))\$" "info: node $n"
done
has_line info.txt '^  CPUs: +8 ' "info: eight CPUs"
has_line info.txt '^  isolated CPUs: +6-7 \(/sys/devices/system/cpu/isolated\)$' "info: isolated"
has_line info.txt '^  nohz_full CPUs: +6-7$' "info: nohz_full"
has_line info.txt '^  hypervisor: +TCGTCGTCGTCG \(QEMU TCG\): emulated' "info: emulated"

[ "$(cat "$back/check.rc")" = 1 ] && ok || bad "check's status on TCG: $(cat "$back/check.rc")"
has_line check.txt '^  hypervisor +bad +TCGTCGTCGTCG \(QEMU TCG\), emulated$' "check: hypervisor"
has_line check.txt '^untrustworthy here: hypervisor TCGTCGTCGTCG \(QEMU TCG\), emulated' \
	"check: untrustworthy"
has_line check.txt '^  isolation +ok +CPU 1-5: none$' "check: housekeeping CPUs"
has_line check.txt '^ +ok +CPU 6-7: isolcpus, nohz_full$' "check: isolated CPUs"
has_line check67.txt '^Machine state for workers on CPU 6-7' "check --cpus 6-7"

has_line cpus.txt "^node:0	0-1	\(2 CPUs\)$" "cpus node:0"
has_line cpus.txt "^node:3	6-7	\(2 CPUs\)$" "cpus node:3"
has_line cpus.txt "^isolated	6-7	\(2 CPUs\)$" "cpus isolated"
has_line cpus.txt "^housekeeping	0-5	\(6 CPUs\)$" "cpus housekeeping"
has_line cpus.err "these CPUs are emulated \(TCGTCGTCGTCG \(QEMU TCG\)\)" "cpus: emulated"
summary machine
