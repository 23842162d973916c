#!/bin/bash
# Seventeenth session, device call 9 (H100, dev): a stale max of shorter reach in the main kernels
# (RESCALE_T 1 and 2: p <= 2 and 4) against the exact max (e) and the old reach (e_rt8): accuracy
# over 16 seeds (accuracy_ab.py), then rotated same-process passes over the d=64 set, e / e_rt1 /
# e_rt2 and e / e_rt2 / e_rt8. Libraries built on the CPU host and carried.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
python3 phases/phase_e/dev/accuracy_ab.py --out "$OUT/acc" --seeds 16 --libs e,e_rt1,e_rt2,e_rt8,d > "$L/accuracy.log" 2>&1
echo "accuracy $((SECONDS - t0)) s" >> "$L/times.txt"
OUT="$OUT/ab1" NAMES=e,e_rt1,e_rt2 SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
OUT="$OUT/ab2" NAMES=e,e_rt2,e_rt8 SHAPES=d64 bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
echo "rotated $((SECONDS - t0)) s" >> "$L/times.txt"
cat "$L/accuracy.log"; cat "$OUT"/ab*/logs/tv*.log; cat "$L/times.txt"
tar czf "$OUT/call9.tgz" -C "$OUT" logs acc ab1 ab2
