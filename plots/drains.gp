# Drain cost against the caches it walks, a line a design (seed 000's
# drain_all_stock() table), log-log. NAME.dat: a block a line, its title
# first, then caches, mean cycles per drain, stddev. xname: the model's
# caches in the plural (stocks).
load scripts.'/common.gp'
set logscale xy
set xlabel xname." walked by a drain"
set ylabel "cycles per drain"
set grid
set key top left
set offsets graph 0.03, graph 0.03, 0, 0
plot for [i=0:n-1] dat index i using 1:2:3 with yerrorlines title columnheader(1)
