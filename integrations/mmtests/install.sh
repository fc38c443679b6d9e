#!/bin/bash
# Install pcpbench's mmtests files into a checkout of mmtests:
#   integrations/mmtests/install.sh MMTESTS_SRC
# shellpack_src/src/pcpbench/, drivers/driver-pcpbench.sh and the two
# configs are copied as they are laid out here; patches/ adds the CYCLES
# unit to bin/lib/MMTests/DataTypes.pm (once); the shellpacks
# shellpacks/shellpack-{install,bench}-pcpbench are built from the
# macros with mmtests' shellpack_src/bin/rewrite-shellpack, as
# shellpack_src/src/refresh.sh builds them before every run.
# Everything is staged and renamed into place (../install-lib.sh): a
# patch that does not apply, or any other failure, leaves the checkout as
# it was, with no .rej or .orig.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 MMTESTS_SRC" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../install-lib.sh"
mm=$(pcb_tree "$1")
[ -x "$mm/run-mmtests.sh" ] && [ -d "$mm/shellpack_src/src" ] || pcb_die "$mm is not an mmtests checkout"
src=$(pcb_dir "$mm" shellpack_src/src)
drivers=$(pcb_dir "$mm" drivers)
configs=$(pcb_dir "$mm" configs)
shellpacks=$(pcb_dir "$mm" shellpacks)
lib=$(pcb_dir "$mm" bin/lib/MMTests)
rewrite=$mm/shellpack_src/bin/rewrite-shellpack
pcb_regular "$rewrite" && [ -x "$rewrite" ] || pcb_die "$rewrite: not an executable file"

# the CYCLES unit, patched into a staged copy of DataTypes.pm
types=$lib/DataTypes.pm
pcb_regular "$types" || pcb_die "$types: no such file"
if ! grep -q LABEL_CYCLES "$types"; then
	pcb_stage "$types"
	cat -- "$types" >"$pcb_tmp"
	chmod --reference="$types" -- "$pcb_tmp"
	patch -s -N -r - --no-backup-if-mismatch "$pcb_tmp" <"$here/patches/mmtests-cycles-unit.patch" ||
		pcb_die "$here/patches/mmtests-cycles-unit.patch does not apply to $types: nothing installed"
fi

# shellpack KIND: shellpacks/shellpack-KIND-pcpbench, every macro expanded, staged
shellpack() {
	local out
	pcb_stage "$shellpacks/shellpack-$1-pcpbench"
	out=$pcb_tmp
	cp -- "$here/shellpack_src/src/pcpbench/pcpbench-$1" "$out"
	# rewrite-shellpack expands a round of macros, and fails when none is left
	while (cd "$here/shellpack_src/src" && "$rewrite" pcpbench) <"$out" >"$out.next"; do
		mv -f -- "$out.next" "$out"
	done
	rm -f -- "$out.next"
	! grep -q '###SHELLPACK' "$out" || pcb_die "$1: macros left unexpanded by $rewrite"
	chmod 755 -- "$out"
}

pcb_copy "$here/shellpack_src/src/pcpbench" "$src/pcpbench"
pcb_copy "$here/drivers/driver-pcpbench.sh" "$drivers/driver-pcpbench.sh"
for c in "$here"/configs/config-workload-pcpbench-*; do
	pcb_copy "$c" "$configs/$(basename "$c")"
done
shellpack install
shellpack bench
pcb_commit

echo "installed pcpbench's shellpack into $mm"
