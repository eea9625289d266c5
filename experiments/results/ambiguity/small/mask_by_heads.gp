set terminal svg size 900,560 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'mask_by_heads.svg'
set title "get_mask latency against GSS width" noenhanced
set datafile separator ','
set key outside right top noenhanced
set grid
set xlabel 'GSS width (stack tops of 8 states)'
set ylabel 'median get_mask latency (us)'
set logscale y
set xtics ('1' 1, '2' 2, '3-4' 3, '5-8' 4, '9-16' 5, '17+' 6)
set xrange [0.5:6.5]
plot 'by_heads.dat' index 0 using 1:2 with linespoints linewidth 2 pointtype 7 title 'go-convention-wfa', 'by_heads.dat' index 1 using 1:2 with linespoints linewidth 2 pointtype 7 title 'go-convention-spanner', 'by_heads.dat' index 2 using 1:2 with linespoints linewidth 2 pointtype 7 title 'go-glr-spanner', 'by_heads.dat' index 3 using 1:2 with linespoints linewidth 2 pointtype 7 title 'java-convention-wfa', 'by_heads.dat' index 4 using 1:2 with linespoints linewidth 2 pointtype 7 title 'java-convention-spanner', 'by_heads.dat' index 5 using 1:2 with linespoints linewidth 2 pointtype 7 title 'java-glr-wfa', 'by_heads.dat' index 6 using 1:2 with linespoints linewidth 2 pointtype 7 title 'java-glr-spanner', 'by_heads.dat' index 7 using 1:2 with linespoints linewidth 2 pointtype 7 title 'sql-convention-wfa', 'by_heads.dat' index 8 using 1:2 with linespoints linewidth 2 pointtype 7 title 'sql-convention-spanner', 'by_heads.dat' index 9 using 1:2 with linespoints linewidth 2 pointtype 7 title 'sql-glr-wfa', 'by_heads.dat' index 10 using 1:2 with linespoints linewidth 2 pointtype 7 title 'sql-glr-spanner', 'by_heads.dat' index 11 using 1:2 with linespoints linewidth 2 pointtype 7 title 'json-convention-wfa', 'by_heads.dat' index 12 using 1:2 with linespoints linewidth 2 pointtype 7 title 'json-convention-spanner', 'by_heads.dat' index 13 using 1:2 with linespoints linewidth 2 pointtype 7 title 'json-glr-wfa', 'by_heads.dat' index 14 using 1:2 with linespoints linewidth 2 pointtype 7 title 'json-glr-spanner', 'by_heads.dat' index 15 using 1:2 with linespoints linewidth 2 pointtype 7 title 'expr-convention-wfa', 'by_heads.dat' index 16 using 1:2 with linespoints linewidth 2 pointtype 7 title 'expr-convention-spanner', 'by_heads.dat' index 17 using 1:2 with linespoints linewidth 2 pointtype 7 title 'expr-glr-wfa', 'by_heads.dat' index 18 using 1:2 with linespoints linewidth 2 pointtype 7 title 'expr-glr-spanner'

