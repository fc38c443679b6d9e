# What every figure shares. pcpbench plot runs each script twice, with
# fmt='svg' and fmt='png', and sets dir (where NAME.dat is and the images
# go), name, n (data blocks or bar columns in NAME.dat), ttl and scripts.
if (!exists("w")) w = 960
if (!exists("h")) h = 600
if (fmt eq "svg") {
	set terminal svg size w,h noenhanced font "sans,11" background "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size w,h noenhanced font "sans,10"
	} else {
		set terminal png size w,h noenhanced
	}
}
set output dir.'/'.name.'.'.fmt
set datafile separator "\t"
set datafile missing "?"
set title ttl
dat = dir.'/'.name.'.dat'
# sixteen colours told apart, before gnuplot's eight repeat (a sweep of
# six designs at two settings has twelve bars a function)
array pcb_colours[16] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", \
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939", "#e7ba52", \
	"#843c39", "#5254a3"]
do for [i=1:16] {
	set linetype i linecolor rgb pcb_colours[i]
}
set linetype cycle 16
