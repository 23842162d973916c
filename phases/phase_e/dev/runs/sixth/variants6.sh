#!/bin/bash
# Device call: d=64 causal at the seqlen chart's lengths, the main kernel (e) against the
# short-row kernel's configuration (e_m4w1), libraries built on the CPU; two passes.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader > "$L/gpu.txt"
python3 phases/phase_e/dev/time_variants.py --build $B --shapes causal64 --rounds 40 --names e,e_m4w1 > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes causal64 --rounds 40 --names e_m4w1,e > "$L/tv2.log" 2>&1
tail -n 20 "$L/tv.log" "$L/tv2.log"
