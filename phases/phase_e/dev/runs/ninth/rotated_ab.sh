#!/bin/bash
# Ninth session: a same-process A/B of three builds in three rotated orders (each build first
# once), one time_variants.py run per order. NAMES=a,b,c SHAPES=<time_variants.py shape set>.
#   call 6:  NAMES=e_pd0,e,e_sk0 SHAPES=d64 (the persistent d=64 kernel, with and without SK_TAIL)
#   call 12: NAMES=e,e_cw2,e_cw2_sk0 SHAPES=d64 (d=64 with 128-row items)
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
IFS=, read -r a b c <<< "$NAMES"
n=0
for names in "$a,$b,$c" "$b,$c,$a" "$c,$a,$b"; do
  n=$((n + 1))
  python3 phases/phase_e/dev/time_variants.py --build $B --shapes "$SHAPES" --rounds 40 --names $names > "$L/tv$n.log" 2>&1
done
cat "$L"/tv*.log
