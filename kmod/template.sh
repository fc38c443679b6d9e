#!/bin/sh
# SPDX-License-Identifier: MIT
# The design template's builds of one model, for Kbuild (kmod/Kbuild), as
# kernels/template/meson.build makes them for the program: every design
# of DIR/designs.def in every variant of DIR/variants.def, the first axis
# major, the variant named by its axes' letters and values (s7_i1) and
# numbered in that order. A design whose header says
# DESIGN_KERNEL_REFUSED has no kernel meaning and is left out.
#
# usage: template.sh DIR
# prints one word a build: design:tag:index:count:MACRO=value,MACRO=value
set -eu
dir=$1

entries() {
	# one entry a line, comments and blank lines skipped, as meson reads them
	sed -e 's|/\*.*||' -e 's|//.*||' -e 's/^[[:space:]]*\*.*//' "$1" |
		grep -o "$2([^)]*)" | sed -e "s/^$2(//" -e 's/)$//' -e 's/[[:space:]]//g'
}

combos=":"
count=1
for axis in $(entries "$dir/variants.def" PCB_AXIS); do
	macro=${axis%%,*}
	rest=${axis#*,}
	letter=${rest%%,*}
	values=$(echo "${rest#*,}" | tr , ' ')
	next=
	n=0
	for c in $combos; do
		for v in $values; do
			tag=${c%%:*}
			flags=${c#*:}
			next="$next ${tag:+${tag}_}$letter$v:${flags:+$flags,}$macro=$v"
		done
	done
	for v in $values; do n=$((n + 1)); done
	count=$((count * n))
	combos=$next
done

for d in $(entries "$dir/designs.def" PCB_DESIGN); do
	grep -q '^#define DESIGN_KERNEL_REFUSED' "$dir/designs/$d.h" && continue
	i=0
	for c in $combos; do
		echo "$d:${c%%:*}:$i:$count:${c#*:}"
		i=$((i + 1))
	done
done
