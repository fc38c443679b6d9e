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
