set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'first_mask_cdf.svg'
set title "Time to first mask over MaskBench dev" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set datafile separator ','
set logscale x
set xlabel 'time to first mask (ms), tokenizer loaded'
set ylabel 'fraction of compiled schemas'
set key bottom right
set grid
plot 'first_mask_cdf.csv' using 1:3 skip 1 with steps lw 2 title 'wall time', 'first_mask_cdf.csv' using 2:3 skip 1 with steps lw 2 title 'CPU time of the thread'

