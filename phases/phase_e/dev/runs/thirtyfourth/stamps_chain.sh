#!/bin/bash
# Thirty-fourth session: the chained kernel's item 1 in detail (e_stamps_chain, built on the CPU
# with stamps_chain.patch applied, kernel.cu then put back), beside the coarse item chain
# (e_stamps) and the one-CTA-per-item chain of points (e_stamps_pd0), at (8,16,2048,64) and
# (4,16,4096,64); then e_ostg's timing (below). No ladder record is made.
set -u
L=/tmp/stamps_logs; mkdir -p "$L"; t0=$SECONDS
B=phases/phase_e/dev/.build
for shape in 8,16,2048,64 4,16,4096,64; do
  for lib in e_stamps_chain e_stamps e_stamps_pd0; do
    timeout 60 python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib --shape $shape \
      > "$L/${lib}_${shape//,/x}.log" 2>&1
    echo "$lib $shape rc $?"; grep -A3 "== call 1" "$L/${lib}_${shape//,/x}.log" | grep "wave"
    tar czf "$OUT/stamps_logs.tgz" -C /tmp stamps_logs
  done
done
echo "stamps $((SECONDS - t0)) s"
# Then one same-process timing of the chained kernel with its O stored straight from registers
# (e_ostg, o_stg.patch) against the shipped e, e_pd0 and phase_d, over chain64.
timeout 200 python3 phases/phase_e/dev/time_variants.py --build $B --shapes chain64 --rounds 40 \
  --names e,e_ostg,e_pd0,d > "$L/tv.log" 2>&1
echo "tv rc $?"; cat "$L/tv.log"
tar czf "$OUT/stamps_logs.tgz" -C /tmp stamps_logs
echo "total $((SECONDS - t0)) s"
