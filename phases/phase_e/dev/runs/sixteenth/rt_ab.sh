#!/bin/bash
# Sixteenth session, device call 1: the exact row max at fp16 d=64 (RESCALE_T=0), alone (e_rt0)
# and with the exact-max vote (e_rt0_sv2), against the shipped build (e) and phase_d (d):
# accuracy over 16 seeds (accuracy_ab.py), then three rotated same-process timing passes over
# the d=64 set and one pass over the short set (graph times at the seed). Libraries built on the
# CPU host beforehand (check.py --stages build --libs e,e_rt0,e_rt0_sv2,d) and carried.
# (That call's "e" was the build now named e_rt8: to rerun it, use NAMES=e_rt8,e_rt0,e_rt0_sv2.)
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
python3 phases/phase_e/dev/accuracy_ab.py --out "$OUT/acc" --seeds 16 --libs e,e_rt0,e_rt0_sv2,d > "$L/accuracy.log" 2>&1
echo "accuracy $((SECONDS - t0)) s" >> "$L/times.txt"
OUT="$OUT/ab" NAMES=e,e_rt0,e_rt0_sv2 SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
echo "rotated $((SECONDS - t0)) s" >> "$L/times.txt"
python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes short --rounds 30 \
  --names e,e_rt0,e_rt0_sv2,d > "$L/tv_short.log" 2>&1
echo "short $((SECONDS - t0)) s" >> "$L/times.txt"
cat "$L/accuracy.log"; cat "$OUT/ab/logs"/tv*.log; cat "$L/tv_short.log"; cat "$L/times.txt"
