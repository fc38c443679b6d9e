# Cycles per call of every design and function, with the standard deviation
# of the run means. gnuplot -e "dir='RESULT_DIR'" plots/functions.gp
if (!exists("dir")) dir = "."
set datafile separator ","
set terminal pngcairo size 1200,600 noenhanced
set output dir."/functions.png"
set title "cycles per call (mean of run means, +/- stddev)"
set ylabel "cycles"
set style fill solid 0.5 border -1
set boxwidth 0.7
set xtics rotate by -40 font ",9"
set yrange [0:*]
set offsets 0.6, 0.6, 0, 0
set bmargin 12
set grid ytics
plot dir."/functions.csv" every ::1 using 0:4:5:xtic(stringcolumn(1)." ".stringcolumn(2)) \
     with boxerrorbars notitle
