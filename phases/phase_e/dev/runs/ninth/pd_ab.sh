#!/bin/bash
# Ninth session, device call 5: the persistent d=64 kernel (PERSIST_D64, O in a buffer of its
# own) against the build without it: the bitwise repeat check at d=64 (sk_repeat.py d64), the
# trap sweeps of the default and of e_pd_main_trap (every d=64 shape on the main kernel, items cut
# however short their rows), compute-sanitizer on the d=64 persistent and SK shapes, and the A/B
# (eighth/ps_ab.sh).
set -u
mkdir -p "$OUT/logs"
python3 phases/phase_e/dev/runs/ninth/sk_repeat.py d64 > "$OUT/logs/repeat.log" 2>&1
cat "$OUT/logs/repeat.log"
CHECK="correct:e_trap+correct:e_pd_main_trap" NAMES=e_pd0,e SHAPES=d64 \
SAN="memcheck 2 70 200 600 64 bf16 0 1 --check;memcheck 1 70 200 2000 64 fp16 0 1;racecheck 2 70 200 600 64 bf16 0;racecheck 1 70 200 2000 64 fp16 0;synccheck 2 70 200 600 64 bf16 0;synccheck 1 70 200 2000 64 fp16 0" \
  bash phases/phase_e/dev/runs/eighth/ps_ab.sh
