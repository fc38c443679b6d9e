#!/bin/bash
# Plot a result directory with gnuplot: functions.png (cycles per call of
# every design and function) and, when the run drained, drains.png
# (drain_all_stock() cycles against stocks). The images go beside the CSVs.
set -euo pipefail

if [ $# -ne 1 ] || [ ! -f "$1/functions.csv" ]; then
	echo "usage: scripts/plot.sh RESULT_DIR   (a directory pcpbench run wrote)" >&2
	exit 2
fi
if ! command -v gnuplot >/dev/null; then
	echo "plot.sh: gnuplot is not installed (Debian: apt-get install gnuplot-nox)" >&2
	exit 1
fi
here=$(cd "$(dirname "$0")/.." && pwd)
gnuplot -e "dir='$1'" "$here/plots/functions.gp"
echo "$1/functions.png"
if [ -f "$1/drains.csv" ] && [ "$(wc -l < "$1/drains.csv")" -gt 1 ]; then
	gnuplot -e "dir='$1'" "$here/plots/drains.gp"
	echo "$1/drains.png"
fi
