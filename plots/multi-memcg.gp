# Seed 002 against the memcgs charged in turn: each configuration's Diff %
# a function against its baseline configuration (as the tables' Diff
# block), the stock hit rate and page_counter atomics per charge. NAME.dat:
# ngain blocks of Diff %, nstock of hit rate %, the rest atomics per charge;
# each block its title first, then memcgs and the figure.
w = 1500
h = 560
load scripts.'/common.gp'
unset title
set multiplot layout 1, (ngain > 0) + (nstock > 0) * 2 title ttl
set xlabel "memcgs charged in turn"
set grid
set key top left
if (ngain > 0) {
	set ylabel "Diff % against the baseline configuration"
	plot for [i=0:ngain-1] dat index i using 1:2 with linespoints title columnheader(1)
}
if (nstock > 0) {
	set ylabel "stock hit rate %"
	set yrange [0:100]
	plot for [i=ngain:ngain+nstock-1] dat index i using 1:2 with linespoints \
		title columnheader(1)
	set ylabel "page_counter atomics per charge"
	set yrange [0:*]
	plot for [i=ngain+nstock:n-1] dat index i using 1:2 with linespoints \
		title columnheader(1)
}
unset multiplot
