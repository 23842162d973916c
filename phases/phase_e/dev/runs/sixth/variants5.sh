#!/bin/bash
# Device call: the d=64 main kernel in turn, 2 and 4 CTAs per SM
# against the shipped default, libraries built
# on the CPU (carried in dev/.build): full correctness sweep of the trap build
# then same-process timing (two passes, opposite name orders).
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" \
  --stages "correct:e_m2w2_trap" > "$L/check.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 60 --names e,e_m2w2,e_m4w1 > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 60 --names e_m4w1,e_m2w2,e > "$L/tv2.log" 2>&1
tail -n 40 "$L/check.log" "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
