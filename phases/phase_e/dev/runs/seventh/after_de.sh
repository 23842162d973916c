#!/bin/bash
# Device call after evidence_de.sh: the sequence-length chart, `reproduce --only phase_e`, and a
# dev synccheck of phases a-c at the floor's sanitizer shapes (their gates run memcheck and
# racecheck only; a check that the warp-level kernels have no misaligned .sync.aligned either).
# Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
for ph in phase_a phase_b phase_c; do
  python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1
  drv=$(ls -d .ladder-run/build/phases/$ph/*/attn_driver 2>/dev/null | head -1)
  [ -z "$drv" ] && drv=$(find .ladder-run/build/phases/$ph -name attn_driver | head -1)
  for args in "1 2 77 150 64 fp16 1 1" "1 1 200 333 128 bf16 0 1"; do
    echo "== $ph $drv $args" >> "$L/synccheck_abc.log"
    compute-sanitizer --tool synccheck --error-exitcode 99 --print-limit 10 $drv $args >> "$L/synccheck_abc.log" 2>&1
    echo "rc=$?" >> "$L/synccheck_abc.log"
  done
done
echo "synccheck a-c $((SECONDS - t0)) s" >> "$L/times.txt"
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack
grep -E '^== |rc=|ERROR SUMMARY' "$L/synccheck_abc.log"; tail -n 3 "$L"/seqlen.log "$L"/reproduce.log "$L/times.txt"
