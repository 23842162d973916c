#!/bin/bash
# Seventeenth session, device call 10 (H100, dev): PERS_DEFER's drain moved after the first
# tile's softmax (e_late, dev/late/kernel.cu) against the shipped build (e, drain right after the
# first Q·Kᵀ's issue) and the build before PERS_DEFER (e_dd0): two sets of three rotated passes
# over the d=128 set, then the dev sweep on e_late's trap builds (with the gate's LSE bound).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
for rep in 1 2; do
  OUT="$OUT/ab$rep" NAMES=e,e_late,e_dd0 SHAPES=tile bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
done
echo "rotated $((SECONDS - t0)) s" >> "$L/times.txt"
LSE_GATE=1 PYTHONUNBUFFERED=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$OUT/chk" \
  --stages "correct:e_late_trap+correct:e_late_sk1_trap" > "$L/check.log" 2>&1
echo "check $((SECONDS - t0)) s" >> "$L/times.txt"
cat "$OUT"/ab*/logs/tv*.log; cat "$L/check.log"; cat "$L/times.txt"
tar czf "$OUT/call10.tgz" -C "$OUT" logs ab1 ab2 chk
