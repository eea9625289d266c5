set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'vocab_scaling.svg'
set title "mean get_mask latency against vocabulary size" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set logscale y
set xlabel 'vocabulary size (tokens)'
set ylabel 'mean get_mask latency (us)'
set key autotitle columnhead
plot for [i=2:7] 'plot.csv' using 1:i with linespoints linewidth 2 pointtype 7
