set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'preprocessing.svg'
set title "offline preprocessing time (grammar + engine build)" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set xtics rotate by -30
set ylabel 'seconds'
set key autotitle columnhead
plot for [i=2:4] 'plot.csv' using i:xtic(1)
