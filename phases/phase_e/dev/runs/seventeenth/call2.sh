#!/bin/bash
# Seventeenth session, device call 2 (H100): every gate of phase_e with PERS_DEFER on by default
# (fifteenth/phase_e_all.sh, evidence kept), then, in a copy of the tree holding that run's fresh
# build, launch and sanity records, phase_e's correctness gate at trial seeds 1-4 one after the
# other (logs only; the copy's records are thrown away). Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
LIMIT=${LIMIT:-330} bash phases/phase_e/dev/runs/fifteenth/phase_e_all.sh
rm -rf /tmp/seedtree; cp -r . /tmp/seedtree
(cd /tmp/seedtree && for s in ${SEEDS:-1 2 3 4}; do
  python3 phases/phase_e/dev/gate_seed.py phases/phase_e/gate.yaml "$s"
  timeout 120 python3 -m ladder run phase_e --gate correctness > "$L/phase_e_seed$s.log" 2>&1
  echo "seed $s $((SECONDS - t0)) s" >> "$L/times.txt"
done)
grep -h "correctness:" "$L"/*_seed*.log | cut -c1-700
cat "$L/times.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
