set terminal svg size 900,560 dynamic enhanced font 'sans,11' background '#ffffff'
set output 'batch_throughput.svg'
set title "masks per second against batch size" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set logscale x 2
set logscale y
set xlabel 'sessions in the batch (B)'
set ylabel 'masks per second'
set key autotitle columnhead
plot for [i=2:3] 'plot.csv' using 1:i with linespoints linewidth 2 pointtype 7
