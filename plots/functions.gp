# Cycles per call (seed 000's 2.2 tables): a group of bars a function (in
# a sweep, a group a function and configuration, the functions apart), a
# bar a design in its own colour, the error bar the standard deviation of
# the run means. NAME.dat: a row a group, then each design's mean and
# stddev. means: raw or net, as the result is read.
w = 1100
if (exists("labw") && labw > 20) h = 560 + 4 * labw
load scripts.'/common.gp'
set key autotitle columnheader
set key outside right top
set style fill solid 0.7 border -1
set ylabel means." cycles per call"
set yrange [-1e18 < * < 0 : *]
set xzeroaxis linetype -1
set grid ytics
set xtics nomirror rotate by -30
# room for the group labels, slanted: labw the longest one's characters
set bmargin (exists("labw") ? 3 + labw * 0.32 : 7)
bw = 0.8 / n
set boxwidth bw absolute
set offsets 0.5, 0.5, 0, 0
plot for [i=1:n] dat using ($0 + (i - 1 - (n - 1) / 2.0) * bw):(column(2 * i)):(column(2 * i + 1)) \
	with boxerrorbars linetype i title columnheader(2 * i), \
     dat using 0:(NaN):xtic(1) notitle
