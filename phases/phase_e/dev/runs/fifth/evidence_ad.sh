#!/bin/bash
# Device call: the performance gates of phases a-d (their other gates' evidence is fresh), then
# the sequence-length chart. Performance rebuilds what it times. Needs LADDER_GIT_SHA/DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
for p in phase_a phase_b phase_c phase_d; do
  python3 -m ladder run $p --gate build > "$L/${p}_build.log" 2>&1
  python3 -m ladder run $p --gate performance > "$L/${p}_perf.log" 2>&1
done
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
tail -n 3 "$L"/*.log
tar czf "$OUT/evidence_ad.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3
