#!/bin/bash
# Install pcpbench's LKP-tests files into a checkout of lkp-tests:
#   integrations/lkp/install.sh LKP_SRC
# programs/pcpbench/ and jobs/pcpbench.yaml are copied as they are laid
# out here, with the job's pcpbench_version set to this checkout's `git
# describe`; the KPI directions (etc/index-perf-all.yaml: cycles, lower
# is better; etc/index-latency-all.yaml: the p99s) are appended where a
# line for pcpbench is not there yet, and pcpbench is listed in
# etc/linux-perf-test-cases with LKP's other performance tests.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 LKP_SRC" >&2; exit 2; }
lkp=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ -f "$lkp/lib/stats.rb" ] && [ -d "$lkp/programs" ] || {
	echo "$0: $lkp is not an lkp-tests checkout" >&2
	exit 2
}

version=$(git -C "$top" describe --always --tags --dirty 2>/dev/null || echo)

rm -rf "$lkp/programs/pcpbench"
cp -r "$here/programs/pcpbench" "$lkp/programs/"
sed "s/^\(  pcpbench_version:\).*/\1 $version/" "$here/jobs/pcpbench.yaml" >"$lkp/jobs/pcpbench.yaml"

for f in index-perf-all.yaml index-latency-all.yaml; do
	while IFS= read -r line; do
		grep -qxF "$line" "$lkp/etc/$f" || echo "$line" >>"$lkp/etc/$f"
	done <"$here/etc/$f"
done
grep -qx pcpbench "$lkp/etc/linux-perf-test-cases" || echo pcpbench >>"$lkp/etc/linux-perf-test-cases"

echo "installed pcpbench ${version:-(no git describe)} into $lkp"
