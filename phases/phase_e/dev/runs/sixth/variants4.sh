#!/bin/bash
# Device call: the short-row kernel without the overlap, 3 and 4 CTAs per SM
# against the shipped default, libraries built
# on the CPU (carried in dev/.build): full correctness sweep of the trap build
# then same-process timing (two passes, opposite name orders).
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" \
  --stages "correct:e_so64m4_trap" > "$L/check.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 60 --names e,e_so64,e_so64m4 > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 60 --names e_so64m4,e_so64,e > "$L/tv2.log" 2>&1
tail -n 40 "$L/check.log" "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
