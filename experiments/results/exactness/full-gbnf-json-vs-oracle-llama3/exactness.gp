set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'exactness.svg'
set title "teacher-forced steps checked and mismatching steps" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.5:*]
set xtics rotate by -30
set ylabel 'steps'
plot 'plot.csv' using 2:xtic(1) title 'steps checked', '' using ($3+0.5) title 'mismatching steps (+0.5 on the log axis)'
