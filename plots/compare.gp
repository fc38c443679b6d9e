# compare's Diff % a function against the baseline result, a bar a design
# and result from zero, its interval (the tables' CI (Holm)) as whiskers,
# * beyond the whisker of the marked ones as mmtests marks them. NAME.dat:
# a row a function, then each bar's Diff %, 1/0 marked, interval low, high.
w = 1000
load scripts.'/common.gp'
# the results compared on the title's first line, what is drawn on its second
i = strstrt(ttl, ": Diff %")
if (i > 0) set title ttl[1:i-1]."\n".ttl[i+2:]
set key autotitle columnheader
set key outside below center
set style fill solid 0.7 border -1
set ylabel "Diff % (whiskers: its interval)"
set yrange [* < 0 : 0 < *]
set grid ytics
set xzeroaxis linetype -1 linewidth 1.5
set xtics rotate by -25
set bmargin 8
bw = 0.8 / n
set boxwidth bw absolute
set offsets 0.5, 0.5, 0.1, 0.1
x(i) = $0 + (i - 1 - (n - 1) / 2.0) * bw
d(i) = column(4 * i - 2)
lo(i) = column(4 * i) == column(4 * i) ? column(4 * i) : d(i)
hi(i) = column(4 * i + 1) == column(4 * i + 1) ? column(4 * i + 1) : d(i)
star(i, up) = column(4 * i - 1) == 1 && (d(i) >= 0) == up ? "*" : ""
plot for [i=1:n] dat using (x(i)):(d(i)) with boxes linetype i title columnheader(4 * i - 2), \
     for [i=1:n] dat using (x(i)):(column(4 * i)):(0):(column(4 * i + 1) - column(4 * i)) \
	with vectors heads size screen 0.012,90 linetype -1 notitle, \
     for [i=1:n] dat using (x(i)):(hi(i)):(star(i, 1)) with labels offset 0,0.8 notitle, \
     for [i=1:n] dat using (x(i)):(lo(i)):(star(i, 0)) with labels offset 0,-0.8 notitle, \
     dat using 0:(NaN):xtic(1) notitle
