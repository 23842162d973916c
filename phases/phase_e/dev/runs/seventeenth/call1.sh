#!/bin/bash
# Seventeenth session, device call 1 (dev; evidence not kept):
# 1. PERS_DEFER (e_dd) against the shipped build (e) and phase_d (d): two sets of three rotated
#    same-process passes over the d=128 set (time_variants.py "tile": the persistent kernel at
#    (4,16,4096,128) and (16,16,1024,128); causal and (2,16,8192,128) do not run it: controls).
# 2. Correctness of e_dd: the dev sweep on its trap build, and on one that cuts items into
#    stream-K pieces on every many-item d=128 non-causal grid (e_dd_sk1_trap).
# 3. phase_e's correctness gate at trial seeds 1-4, one after the other (side by side they ran
#    out of GPU memory in the fifteenth session): the shipped kernel (PERS_DEFER 0 is SASS-identical
#    to 3f764e0's), whose exact main-kernel max has not been through the seed sweep yet.
# Libraries built on the CPU host beforehand (check.py --stages build --libs e,e_dd,d,e_dd_trap,
# e_dd_sk1_trap) and carried in dev/.build.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
for rep in 1 2; do
  OUT="$OUT/ab$rep" NAMES=e,e_dd,d SHAPES=tile bash phases/phase_e/dev/runs/ninth/rotated_ab.sh > /dev/null 2>&1
done
echo "rotated $((SECONDS - t0)) s" >> "$L/times.txt"
PYTHONUNBUFFERED=1 timeout 200 python3 phases/phase_e/dev/check.py --out "$OUT/chk" \
  --stages "correct:e_dd_trap+correct:e_dd_sk1_trap" > "$L/check.log" 2>&1
echo "check $((SECONDS - t0)) s" >> "$L/times.txt"
for s in ${SEEDS:-1 2 3 4}; do
  python3 phases/phase_e/dev/gate_seed.py phases/phase_e/gate.yaml "$s"
  python3 -m ladder run phase_e --gate build --gate correctness > "$L/phase_e_seed$s.log" 2>&1
  echo "seed $s $((SECONDS - t0)) s" >> "$L/times.txt"
done
cat "$OUT"/ab*/logs/tv*.log; cat "$L/check.log"; grep -h "correctness:" "$L"/*_seed*.log | cut -c1-600
cat "$L/times.txt"
tar czf "$OUT/call1.tgz" -C "$OUT" logs ab1 ab2 chk
