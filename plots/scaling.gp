# Scaling efficiency against the worker count, a line a design and
# function (and the design's operations a second), as will-it-scale sums
# up a sweep: 100% is linear scaling, a call costing what it costs with
# the fewest workers. NAME.dat: a block a line, its title first, then
# workers, efficiency %, 0.
load scripts.'/common.gp'
set xlabel "workers"
set ylabel "efficiency (%, 100 = linear)"
set grid
set key outside right
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
plot for [i=0:n-1] dat index i using 1:2 with linespoints title columnheader(1), \
	100 with lines dashtype 2 lc rgb "black" title "linear"
