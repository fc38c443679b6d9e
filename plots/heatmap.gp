# A per-node run: cycles per call of one function, node x design, each
# cell labelled. NAME.dat: gnuplot's matrix with row and column headers
# (designs across, nodes down). means: raw or net.
w = 360 + 130 * ncols
h = 240 + 45 * nrows
load scripts.'/common.gp'
set view map
unset key
set xtics rotate by -25
set xlabel "design"
set ylabel "node"
set cblabel means." cycles per call"
set palette defined (0 "#fff5eb", 1 "#fd8d3c", 2 "#7f2704")
plot dat matrix rowheaders columnheaders using 1:2:3 with image, \
     dat matrix rowheaders columnheaders using 1:2:(sprintf("%.1f", $3)) with labels
