# The sheaves model against the burst: each configuration's Diff % a
# function against its baseline configuration (as the tables' Diff
# block), the share of allocations the per-CPU layer served, and barn
# exchanges per 1000 calls. NAME.dat: ngain blocks of Diff %, nfast of
# the share, the rest barn exchanges; each block its title first, then
# the burst and the figure.
w = 1500
h = 560
load scripts.'/common.gp'
unset title
set multiplot layout 1, (ngain > 0) + (nfast > 0) * 2 title ttl
set xlabel "objects allocated before they are freed (workload.burst)"
set logscale x 2
set grid
set key top left
if (ngain > 0) {
	set ylabel "Diff % against the baseline configuration"
	plot for [i=0:ngain-1] dat index i using 1:2 with linespoints title columnheader(1)
}
if (nfast > 0) {
	set ylabel "allocations the per-CPU layer served, %"
	set yrange [0:100]
	plot for [i=ngain:ngain+nfast-1] dat index i using 1:2 with linespoints \
		title columnheader(1)
	set ylabel "barn exchanges per 1000 calls"
	set yrange [0:*]
	plot for [i=ngain+nfast:n-1] dat index i using 1:2 with linespoints \
		title columnheader(1)
}
unset multiplot
