#!/bin/bash
# Device call: phase_d through every gate beside `ladder controls --resume` (a new control hooks
# into phase_d's source), then phase_e's performance and profile (it times phase_d), the
# sequence-length chart and `reproduce --only phase_e`. Evidence tarred after each step.
# Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
python3 -m ladder run phase_d --gate build --gate launch --gate sanity --gate correctness > "$L/phase_d_untimed.log" 2>&1 &
d=$!
python3 -m ladder controls --resume > "$L/controls.log" 2>&1
wait $d
echo "untimed d + controls $((SECONDS - t0)) s" >> "$L/times.txt"; pack
for ph in phase_d phase_e; do
  python3 -m ladder run $ph --gate performance --gate profile > "$L/${ph}_perf.log" 2>&1
  echo "$ph perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"; pack
done
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack
grep -i 'warp_vote_wait\|serialized_wgmma' "$L/controls.log"; tail -n 2 "$L"/*.log; cat "$L/times.txt"
tar czf "$OUT/logs.tgz" -C "$OUT" logs; rm -rf "$L"
