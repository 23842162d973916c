#!/bin/bash
# Seventeenth session, device call 11 (H200): `reproduce --only phase_e`, the H200's first. The
# machine starts bare, so phases d and e are built first (their build gates; those records are
# not taken back). Evidence kept: reproduce/ and reproduce.json only. Needs LADDER_GIT_SHA.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
for ph in phase_d phase_e; do python3 -m ladder run $ph --gate build > "$L/${ph}_build.log" 2>&1 & done; wait
echo "builds $((SECONDS - t0)) s" >> "$L/times.txt"
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"
tar czf "$OUT/reproduce_h200.tgz" evidence/h200/reproduce evidence/h200/reproduce.json
tail -n 4 "$L"/*.log | cut -c1-600; cat "$L/times.txt"
