#!/bin/bash
# A guest that hands back what it should not: scripts/vm.sh takes its
# regular files and folders alone. One guest leaves, in results/ and
# rig/, a symlink to a host folder, a device node for a disk, a FIFO in
# place of rig/stdout, a folder shut to all (0000) and a set-uid file;
# another replaces results/ itself by a symlink; another writes a gzip
# stream of a tar holding 16 MiB on the results disk and powers off;
# another leaves 25000 files (past vm.sh's bound); another leaves a child
# running that holds its output. Each: no link, node or FIFO in --out,
# folders 0755 and files 0644, nothing of a host folder copied, nothing
# decompressed, rig/'s own files alone past the bound, no hang past the
# guest's own end, the command's status and output back. --add's DEST
# landed where it was normalised to; a relative one, or one with ..,
# refused before anything boots.
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
mkdir -p results/shut/in
echo shut >results/shut/in/file
chmod 0000 results/shut
chmod 4755 results/sub/file
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
[ "$(stat -c %a "$back/shut" 2>/dev/null)" = 755 ] && [ "$(cat "$back/shut/in/file" 2>/dev/null)" = shut ] &&
	ok || bad "results/shut (0000): mode $(stat -c %a "$back/shut" 2>/dev/null), its file not back"
[ "$(stat -c %a "$back/sub/file" 2>/dev/null)" = 644 ] && ok ||
	bad "results/sub/file (set-uid in the guest): mode $(stat -c %a "$back/sub/file" 2>/dev/null)"
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

# a gzip stream of a tar that holds 16 MiB on the results disk, then off:
# nothing decompressed
cat >"$tmp/bomb.sh" <<'EOF'
mkdir -p /tmp/bomb/pcb/results
head -c 16777216 /dev/zero >/tmp/bomb/pcb/results/big
tar -c -C /tmp/bomb pcb | gzip -c >/dev/vda
sync
poweroff -f
EOF
back=$tmp/back-bomb
vm_run "$tmp/bomb.sh"
[ "$vm_rc" = 125 ] && ok || bad "the gzip stream: exit $vm_rc, not 125"
grep -q 'compressed stream: not taken back' "$tmp/vm.err" && ok || bad "no word of the stream: $(cat "$tmp/vm.err")"
used=$(du -sk "$back" 2>/dev/null | cut -f1)
[ "${used:-0}" -lt 1024 ] && ok || bad "--out grew by $used KiB"

# more files than vm.sh takes back: rig/'s own alone, the status and output
cat >"$tmp/many.sh" <<'EOF'
mkdir -p results/many
cd results/many && seq 1 25000 | xargs touch
echo the many files are made
exit 4
EOF
back=$tmp/back-many
vm_run "$tmp/many.sh"
[ "$vm_rc" = 4 ] && ok || bad "25000 files: exit $vm_rc, not 4: $(tail -n 5 "$tmp/vm.err")"
grep -q "rig/'s own files alone taken back" "$tmp/vm.err" && ok ||
	bad "no word of the bound: $(grep '^vm:' "$tmp/vm.err")"
[ ! -e "$back/many" ] && ok || bad "$(ls "$back/many" | wc -l) of the 25000 files taken back"
grep -q 'the many files are made' "$tmp/vm.out" && ok || bad "its output: $(cat "$tmp/vm.out")"

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
