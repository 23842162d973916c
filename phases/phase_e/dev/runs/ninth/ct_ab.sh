#!/bin/bash
# Ninth session, device call 7: CAUSAL_TAIL (the last heads' causal items heads fastest) at 0
# (head by head to the end), 2 (default) and 4: the trap sweep of the default, then the dev A/B
# on the causal shape sets in rotated orders (the non-causal rows of `ab` are a noise check: their
# kernels' SASS is unchanged).
set -u
L="$OUT/logs"; mkdir -p "$L"
B=phases/phase_e/dev/.build
python3 phases/phase_e/dev/check.py --out "$L/chk" --bundle "" --stages correct:e_trap > "$L/check.log" 2>&1
tail -n 3 "$L/check.log"
n=0
for run in ab:e_ct0,e,e_ct4 ab:e,e_ct4,e_ct0 ab:e_ct4,e_ct0,e causal64:e_ct0,e,e_ct4 causal64:e_ct4,e,e_ct0; do
  n=$((n + 1))
  python3 phases/phase_e/dev/time_variants.py --build $B --shapes "${run%%:*}" --rounds 40 --names "${run#*:}" \
    > "$L/tv${n}_${run%%:*}.log" 2>&1
done
cat "$L"/tv*.log
