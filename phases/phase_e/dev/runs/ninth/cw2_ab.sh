#!/bin/bash
# Ninth session, device call 12: the d=64 main kernel with 128-row items (CONSUMER_WG_D64=2,
# persistent with SK_TAIL as the d=128 kernel is; e_cw2_sk0 without SK_TAIL) against the default
# (192-row items, one CTA per item), d64 shapes, three rotated passes.
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
n=0
for names in e,e_cw2,e_cw2_sk0 e_cw2,e_cw2_sk0,e e_cw2_sk0,e,e_cw2; do
  n=$((n + 1))
  python3 phases/phase_e/dev/time_variants.py --build $B --shapes d64 --rounds 40 --names $names > "$L/tv$n.log" 2>&1
done
cat "$L"/tv*.log
