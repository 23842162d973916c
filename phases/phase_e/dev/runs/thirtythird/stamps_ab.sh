#!/bin/bash
# Prepared in the thirty-third session, run in the thirty-fourth (thirtyfourth/land.sh): where the
# chained d=64 kernel's item time goes. Needs the chained kernel (in kernel.cu since the
# thirty-fourth session; before it, dev/runs/thirtythird/chain.patch applied), and on the CPU:
#   check.py --stages build --libs e_stamps,e_stamps_pd0
# seed_chain.py --shape runs one call at a time after an L2-evicting write and prints, per stamp
# point, the median over CTAs of the time since the CTA's entry. e_stamps (chained): points c..h
# are warpgroup 0's arrival at items 0..5 (every CTA is in the first and only wave), so their
# differences are item times, to set against 16 steps of the one-CTA-per-item kernel's step;
# e_stamps_pd0: the eighth session's chain of points (entry, Q, first softmax, last P·V, exit)
# for the first and the later waves.
# DEADLINE (seconds from the start, default 470): no run starts with less than 40 s left; the
# logs are tarred after every run, so a call cut off returns what it has. LIBS: the stamped
# builds to run at each shape (default e_stamps e_stamps_pd0).
set -u
L=/tmp/stamps_logs; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
for shape in 8,16,2048,64 4,16,4096,64; do
  for lib in ${LIBS:-e_stamps e_stamps_pd0}; do
    left=$((${DEADLINE:-470} - (SECONDS - t0))); [ "$left" -gt 40 ] || { echo "$lib $shape: $left s left, not run"; continue; }
    timeout "$left" python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib --shape $shape \
      > "$L/${lib}_${shape//,/x}.log" 2>&1
    echo "$lib $shape rc $?"; tail -12 "$L/${lib}_${shape//,/x}.log"
    tar czf "$OUT/stamps_logs.tgz" -C /tmp stamps_logs
  done
done
