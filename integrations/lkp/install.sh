#!/bin/bash
# Install pcpbench's LKP-tests files into a checkout of lkp-tests:
#   integrations/lkp/install.sh LKP_SRC
# programs/pcpbench/ and the jobs (jobs/pcpbench.yaml, the seeds'
# scenarios; jobs/pcpbench-quick.yaml, a short first try) are copied as
# they are laid out here, with each job's pcpbench_version set to this
# checkout's `git describe`; the KPI directions (etc/index-perf-all.yaml:
# cycles, lower is better; etc/index-latency-all.yaml: the p99s) are
# added where a line for pcpbench is not there yet, and pcpbench is
# listed in etc/linux-perf-test-cases with LKP's other performance tests.
# Everything is staged and renamed into place (../install-lib.sh): a
# refusal or a failure leaves the checkout as it was.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 LKP_SRC" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../install-lib.sh"
lkp=$(pcb_tree "$1")
[ -f "$lkp/lib/stats.rb" ] && [ -d "$lkp/programs" ] || pcb_die "$lkp is not an lkp-tests checkout"
programs=$(pcb_dir "$lkp" programs)
jobs=$(pcb_dir "$lkp" jobs)
etc=$(pcb_dir "$lkp" etc)

version=$(git -C "$top" describe --always --tags --dirty 2>/dev/null || echo)
# as a YAML single-quoted scalar: any character of a ref name stays itself
quoted="'${version//\'/\'\'}'"

# job SRC PLACE: the job with every document's pcpbench_version set, staged
job() {
	local line docs=0 set=0
	pcb_stage "$2"
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'pcpbench:') docs=$((docs + 1)) ;;
		'  pcpbench_version:'*) line="  pcpbench_version: $quoted" set=$((set + 1)) ;;
		esac
		printf '%s\n' "$line"
	done <"$1" >"$pcb_tmp"
	[ "$docs" -gt 0 ] && [ "$set" -eq "$docs" ] ||
		pcb_die "$1: $docs pcpbench: documents, $set pcpbench_version: lines"
}

pcb_copy "$here/programs/pcpbench" "$programs/pcpbench"
for j in "$here"/jobs/*.yaml; do
	job "$j" "$jobs/$(basename "$j")"
done
for f in index-perf-all.yaml index-latency-all.yaml; do
	pcb_append "$etc/$f" "$here/etc/$f"
done
pcb_append "$etc/linux-perf-test-cases" <(echo pcpbench)
pcb_commit

echo "installed pcpbench ${version:-(no git describe)} into $lkp"
