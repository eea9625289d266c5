set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'token_classes.svg'
set title "token classes against vocabulary size" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set logscale y
set xlabel 'vocabulary size (token ids)'
set ylabel 'classes (Parser DWA)'
set key autotitle columnhead left top
plot for [i=2:5] 'plot.csv' using 1:i with linespoints linewidth 2 pointtype 7
