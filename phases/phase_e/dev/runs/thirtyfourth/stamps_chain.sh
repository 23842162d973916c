#!/bin/bash
# Thirty-fourth session: the chained kernel's item 1 in detail (e_stamps_chain, built on the CPU
# with stamps_chain.patch applied, kernel.cu then put back), beside the coarse item chain
# (e_stamps) and the one-CTA-per-item chain of points (e_stamps_pd0), at (8,16,2048,64) and
# (4,16,4096,64); then e_ostg's timing (below). No ladder record is made.
set -u
t0=$SECONDS
LIBS="e_stamps_chain e_stamps e_stamps_pd0" DEADLINE=360 bash phases/phase_e/dev/runs/thirtythird/stamps_ab.sh
echo "stamps $((SECONDS - t0)) s"
L=/tmp/stamps_logs; B=phases/phase_e/dev/.build
# Then one same-process timing of the chained kernel with its O stored straight from registers
# (e_ostg, o_stg.patch) against the shipped e, e_pd0 and phase_d, over chain64.
timeout 200 python3 phases/phase_e/dev/time_variants.py --build $B --shapes chain64 --rounds 40 \
  --names e,e_ostg,e_pd0,d > "$L/tv.log" 2>&1
echo "tv rc $?"; cat "$L/tv.log"
tar czf "$OUT/stamps_logs.tgz" -C /tmp stamps_logs
echo "total $((SECONDS - t0)) s"
