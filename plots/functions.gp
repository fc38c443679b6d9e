# Cycles per call (seed 000's 2.2 tables): functions on the axis, a bar a
# design, the error bar the standard deviation of the run means.
# NAME.dat: a row a function, then each design's mean and stddev.
w = 1000
load scripts.'/common.gp'
set key autotitle columnheader
set key outside right top
set style fill solid 0.7 border -1
set ylabel "cycles per call"
set yrange [-1e18 < * < 0 : *]
set xzeroaxis linetype -1
set grid ytics
set xtics nomirror
bw = 0.8 / n
set boxwidth bw absolute
set offsets 0.5, 0.5, 0, 0
plot for [i=1:n] dat using ($0 + (i - 1 - (n - 1) / 2.0) * bw):(column(2 * i)):(column(2 * i + 1)) \
	with boxerrorbars title columnheader(2 * i), \
     dat using 0:(NaN):xtic(1) notitle
