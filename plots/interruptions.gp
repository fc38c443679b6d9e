# Interruptions of an isolated worker per latency bucket, a line a design,
# both axes log-scaled as oslat's histograms are read. NAME.dat: a block a
# line, its title first, then the bucket's lower bound (us) and its count.
w = 1200
load scripts.'/common.gp'
set logscale xy
set xlabel "interruption (us, bucket lower bound)"
set ylabel "count"
set grid
set key outside right top
plot for [i=0:n-1] dat index i using 1:2 with linespoints pointsize 0.6 title columnheader(1)
