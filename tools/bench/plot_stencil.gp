# Plots bench_stencil's CSV (paper 1, Figs 9-10): GPU time against object count and against
# triangle count. Usage: gnuplot -e "csv='out/bench/bench_stencil.csv'; png='out/bench/stencil.png'" plot_stencil.gp
set datafile separator ","
set terminal pngcairo size 1100,450 noenhanced
set output png
set multiplot layout 1,2 title "vkcollide stencil method (CInDeR), GPU pass time"
set key off
set grid
set ylabel "GPU time per detection [ms]"
# Rows are BM_Stencil/objects/N and BM_Stencil/triangles/N; the counters carry the x values.
set xlabel "objects (boxes)"
plot csv using (strstrt(strcol(1), "objects") ? column("objects") : NaN):(column("gpu_ms")) with linespoints pt 7
set xlabel "triangles (two spheres), thousands"
plot csv using (strstrt(strcol(1), "triangles") ? column("triangles") / 1000 : NaN):(column("gpu_ms")) with linespoints pt 7
unset multiplot
