#!/bin/bash
# A guest that hands back what it should not: scripts/vm.sh takes its
# regular files and folders alone. One guest leaves, in results/ and
# rig/, a symlink to a host folder, a device node for a disk, a FIFO in
# place of rig/stdout and results/ itself replaced by a symlink on its
# second level; another writes a gzip stream of 64 MiB on the results disk
# and powers off; a third leaves a child running that holds its output.
# Each: no link, node or FIFO in --out, nothing of a host folder copied,
# nothing decompressed, no hang past the guest's own end, the command's
# status and output back. --add's DEST landed where it was normalised to;
# a relative one, or one with .., refused before anything boots.
. "$(dirname "$0")/lib.sh"

echo "added file" >"$tmp/f"
for dest in pcb/x /../../x /pcb/../x; do
	expect_rc 2 "$src/scripts/vm.sh" --pcpbench "$pcpbench" --add "$tmp/f:$dest" -- true
	grep -qE "is not an absolute path in the guest|has a '..' in it" "$tmp/err" && ok ||
		bad "--add $tmp/f:$dest: $(cat "$tmp/err")"
done

# links, nodes, FIFOs
cat >"$tmp/evil.sh" <<'EOF'
mkdir -p results/sub
echo kept >results/sub/file
ln -s /etc results/etc-link
ln -s /etc/passwd results/passwd-link
mknod results/disk b 8 0
mkfifo results/fifo
mkdir -p results/sub/deep
rmdir results/sub/deep
ln -s /root results/sub/deep
rm -f /rig/stdout
mkfifo /rig/stdout
cat /pcb/added/f
echo out-of-command
exit 3
EOF
vm_run "$tmp/evil.sh" --add "$tmp/f://pcb/./added//f"
[ "$vm_rc" = 3 ] && ok || bad "the evil guest: exit $vm_rc, not its command's 3: $(tail -n 5 "$tmp/vm.err")"
[ "$(cat "$back/sub/file" 2>/dev/null)" = kept ] && ok || bad "results/sub/file not back"
left=$(find "$back" ! -type f ! -type d)
[ -z "$left" ] && ok || bad "not a file or a folder in --out: $left"
[ ! -e "$back/sub/deep" ] && ok || bad "results/sub/deep (a link to /root) was followed"
for n in etc-link passwd-link disk fifo sub/deep; do
	grep -q "results/$n" "$tmp/vm.err" && ok || bad "no warning of results/$n: $(cat "$tmp/vm.err")"
done
grep -q "rig/stdout" "$tmp/vm.err" && ok || bad "no warning of rig/stdout, a FIFO"
# the FIFO in rig/stdout's place: nothing printed of it, and no hang
grep -q 'out-of-command' "$tmp/vm.out" && bad "rig/stdout, a FIFO, was read" || ok
grep -q 'added file' "$tmp/console.log" && ok || bad "--add's normalised DEST: $(grep -a added "$tmp/console.log")"

# results/ itself a link to a host folder: nothing of that folder comes back
cat >"$tmp/swap.sh" <<'EOF'
rm -rf results
ln -s /root results
exit 0
EOF
back=$tmp/back-swap
vm_run "$tmp/swap.sh"
[ "$vm_rc" = 0 ] && ok || bad "results/ a link: exit $vm_rc: $(tail -n 5 "$tmp/vm.err")"
[ -z "$(ls -A "$back" 2>/dev/null)" ] && ok || bad "results/ a link to /root: copied $(ls -A "$back")"
grep -q 'pcb/results' "$tmp/vm.err" && ok || bad "no warning of pcb/results, a link"

# a gzip stream on the results disk, then off: nothing decompressed
cat >"$tmp/bomb.sh" <<'EOF'
head -c 67108864 /dev/zero | gzip -c >/dev/vda
sync
poweroff -f
EOF
back=$tmp/back-bomb
vm_run "$tmp/bomb.sh"
[ "$vm_rc" = 125 ] && ok || bad "the gzip stream: exit $vm_rc, not 125"
grep -q 'compressed stream: not taken back' "$tmp/vm.err" && ok || bad "no word of the stream: $(cat "$tmp/vm.err")"
used=$(du -sk "$back" 2>/dev/null | cut -f1)
[ "${used:-0}" -lt 1024 ] && ok || bad "--out grew by $used KiB"

# a child left running, holding the command's output: the guest still ends
# with the command, its status and output back
cat >"$tmp/leftover.sh" <<'EOF'
sleep 1000 &
echo the command ends
exit 0
EOF
start=$SECONDS
back=$tmp/back-leftover
vm_run "$tmp/leftover.sh"
[ "$vm_rc" = 0 ] && ok || bad "a leftover child: exit $vm_rc: $(tail -n 5 "$tmp/vm.err")"
grep -q 'the command ends' "$tmp/vm.out" && ok || bad "its output: $(cat "$tmp/vm.out")"
echo "a guest with a leftover child: $((SECONDS - start)) s in all"
summary vm-hostile
