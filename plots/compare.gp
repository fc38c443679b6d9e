# compare's Diff % a function against the baseline result, a bar a design
# and result, * above (or below) the significant ones as mmtests marks
# them. NAME.dat: a row a function, then each bar's Diff % and 1/0.
w = 1000
load scripts.'/common.gp'
set key autotitle columnheader
set key outside right top
set style fill solid 0.7 border -1
set ylabel "Diff %"
set grid ytics
set xzeroaxis linetype -1
set xtics rotate by -25
set bmargin 6
bw = 0.8 / n
set boxwidth bw absolute
set offsets 0.5, 0.5, 0.1, 0.1
x(i) = $0 + (i - 1 - (n - 1) / 2.0) * bw
star(i, up) = column(2 * i + 1) == 1 && (column(2 * i) >= 0) == up ? "*" : ""
plot for [i=1:n] dat using (x(i)):(column(2 * i)) with boxes title columnheader(2 * i), \
     for [i=1:n] dat using (x(i)):(column(2 * i)):(star(i, 1)) with labels offset 0,0.8 notitle, \
     for [i=1:n] dat using (x(i)):(column(2 * i)):(star(i, 0)) with labels offset 0,-0.8 notitle, \
     dat using 0:(NaN):xtic(1) notitle
