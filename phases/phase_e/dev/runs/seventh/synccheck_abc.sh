#!/bin/bash
# Device call step: a dev synccheck of phases a-c at the floor's two sanitizer shapes (their gates
# run memcheck and racecheck only): their build gate, then compute-sanitizer on each driver.
set -u
L="$OUT/logs"; mkdir -p "$L"
for ph in phase_a phase_b phase_c; do
  python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1
  drv=$(find .ladder-run/build/phases/$ph -name attn_driver | head -1)
  for args in "1 2 77 150 64 fp16 1 1" "1 1 200 333 128 bf16 0 1"; do
    echo "== $ph $drv $args" >> "$L/synccheck_abc.log"
    compute-sanitizer --tool synccheck --error-exitcode 99 --print-limit 10 $drv $args >> "$L/synccheck_abc.log" 2>&1
    echo "rc=$?" >> "$L/synccheck_abc.log"
  done
done
grep -E '^== |rc=|ERROR SUMMARY' "$L/synccheck_abc.log"
