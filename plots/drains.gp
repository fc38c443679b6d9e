# drain_all_stock() cycles against the stocks it walks, one line per design
# (seed 000's drain table). gnuplot -e "dir='RESULT_DIR'" plots/drains.gp
if (!exists("dir")) dir = "."
set datafile separator ","
set terminal pngcairo size 900,600 noenhanced
set output dir."/drains.png"
set title "drain_all_stock(): cycles per call against stocks"
set xlabel "stocks (CPUs)"
set ylabel "cycles"
set logscale xy
set grid
set key top left
designs = system("tail -n +2 ".dir."/drains.csv | cut -d, -f2 | awk '!seen[$0]++' | tr '\\n' ' '")
plot for [d in designs] sprintf("< awk -F, '$2 == \"%s\"' %s/drains.csv", d, dir) \
     using 3:5:6 with yerrorlines title d
