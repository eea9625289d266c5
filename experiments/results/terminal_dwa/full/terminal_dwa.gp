set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'terminal_dwa.svg'
set title "Terminal DWA build time" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set style data histogram
set style histogram rowstacked
set style fill solid 0.8 border -1
set boxwidth 0.7
set xtics rotate by -30
set ylabel 'seconds'
set key autotitle columnhead
plot 'plot.csv' using 2:xtic(1), '' using 3
