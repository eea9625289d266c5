set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'overhead.svg'
set title "mean mask overhead per token (us, log scale)" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set xtics rotate by -30
set ylabel 'us per token'
set key autotitle columnhead
plot for [i=2:3] 'plot.csv' using i:xtic(1)
