# Interruptions of an isolated worker per latency bucket, as oslat's
# histograms are read: an impulse a bucket that has a count (an empty
# bucket draws nothing, no line joins across it), both axes log-scaled.
# Lines side by side inside their bucket: line i of n at the bucket's
# lower bound times 1 + 0.03 i / n, within the narrowest bucket (1/32 of
# its bound wide). NAME.dat: a block a line, its title first, then the
# bucket's lower bound (us) and its count.
w = 1200
load scripts.'/common.gp'
set logscale xy
set xlabel "interruption (us, bucket lower bound)"
set ylabel "count"
set yrange [0.7:*]
set grid
set key outside right top
plot for [i=0:n-1] dat index i using ($1 * (1 + 0.03 * i / n)):2 with impulses \
	linetype i + 1 linewidth 3 title columnheader(1)
