#!/bin/bash
# Install pcpbench's mmtests files into a checkout of mmtests:
#   integrations/mmtests/install.sh MMTESTS_SRC
# shellpack_src/src/pcpbench/, drivers/driver-pcpbench.sh and the two
# configs are copied as they are laid out here; patches/ adds the CYCLES
# unit to bin/lib/MMTests/DataTypes.pm (once); refresh.sh builds
# shellpacks/shellpack-{install,bench}-pcpbench from the macros, as
# run-mmtests.sh does before every run.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 MMTESTS_SRC" >&2; exit 2; }
mm=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$mm/run-mmtests.sh" ] && [ -d "$mm/shellpack_src/src" ] || {
	echo "$0: $mm is not an mmtests checkout" >&2
	exit 2
}

rm -rf "$mm/shellpack_src/src/pcpbench"
cp -r "$here/shellpack_src/src/pcpbench" "$mm/shellpack_src/src/"
cp "$here/drivers/driver-pcpbench.sh" "$mm/drivers/"
cp "$here"/configs/config-workload-pcpbench-* "$mm/configs/"
grep -q LABEL_CYCLES "$mm/bin/lib/MMTests/DataTypes.pm" ||
	patch -d "$mm" -p1 --no-backup-if-mismatch <"$here/patches/mmtests-cycles-unit.patch" >/dev/null
"$mm/shellpack_src/src/refresh.sh" pcpbench

echo "installed pcpbench's shellpack into $mm"
