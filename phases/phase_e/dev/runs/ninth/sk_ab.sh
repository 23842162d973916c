#!/bin/bash
# Ninth session, device call 1: SK_TAIL against the build without it. The trap sweeps of the new
# default and of e_sk1_trap (items cut on every many-item d=128 non-causal shape), compute-sanitizer
# on the SK shapes (dev/.build/driver_ps = the default build), the bitwise repeat check
# (sk_repeat.py), then a same-process A/B of e_sk0 and e in both orders (eighth/ps_ab.sh does the
# sweeps, sanitizers and A/B).
set -u
mkdir -p "$OUT/logs"
python3 phases/phase_e/dev/runs/ninth/sk_repeat.py > "$OUT/logs/repeat.log" 2>&1
cat "$OUT/logs/repeat.log"
CHECK="correct:e_trap+correct:e_sk1_trap" NAMES=e_sk0,e \
SAN="memcheck 1 70 130 2000 128 bf16 0 1 --check;memcheck 3 47 256 2100 128 fp16 0 1 --check;racecheck 1 70 130 2000 128 bf16 0;synccheck 1 70 130 2000 128 bf16 0;synccheck 3 47 256 2100 128 fp16 0" \
  bash phases/phase_e/dev/runs/eighth/ps_ab.sh
