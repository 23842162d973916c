#!/bin/bash
# Ninth session, device call 6: call 5 measured the persistent d=64 kernel (with SK_TAIL) level
# with the build without it. Which part: e_pd0 (not persistent), e (persistent + SK_TAIL) and
# e_sk0 (persistent, no SK_TAIL), d=64 shapes, three passes in rotated orders.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
n=0
for names in e_pd0,e,e_sk0 e,e_sk0,e_pd0 e_sk0,e_pd0,e; do
  n=$((n + 1))
  python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 40 --names $names > "$L/tv$n.log" 2>&1
done
cat "$L"/tv*.log
