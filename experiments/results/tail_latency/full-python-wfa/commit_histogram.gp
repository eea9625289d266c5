set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'commit_histogram.svg'
set title "commit latency per step" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set logscale x
set xlabel 'latency (us, bucket start)'
set ylabel 'fraction of steps'
set key autotitle columnhead
plot for [i=2:2] 'commit_histogram.csv' using 1:i with steps linewidth 2

