# Contended lock acquisitions per drain (seed 000, 2.3) against a swept
# drain rate or think time, a line a design and side. NAME.dat: a block a
# line, its title first, then x, contentions per drain, 0, x's rank. With
# logx=0 (an x of 0) the x values are categories.
load scripts.'/common.gp'
set xlabel xname
set ylabel "contended acquisitions per drain"
set yrange [0:*]
set grid
set key top left
if (logx) {
	set logscale x
	set offsets graph 0.03, graph 0.03, 0, 0
	plot for [i=0:n-1] dat index i using 1:2 with linespoints title columnheader(1)
} else {
	set offsets 0.3, 0.3, 0, 0
	plot for [i=0:n-1] dat index i using 4:2:xtic(sprintf("%g", $1)) with linespoints \
		title columnheader(1)
}
