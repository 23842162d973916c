#!/bin/bash
# After the concurrency check's fix (798eab4): sanity of every phase side by side, then phase_e's
# correctness (refused in call 1 behind its failed sanity). Tars the phase evidence into $OUT.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/phase_*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
pids=()
for ph in phase_a phase_b phase_c phase_d phase_e; do
  timeout 330 python3 -m ladder run $ph --gate build --gate sanity > "$L/${ph}_sanity.log" 2>&1 & pids+=($!)
done
wait "${pids[@]}"; stamp "sanity a-e"
timeout 200 python3 -m ladder run phase_e --gate correctness > "$L/phase_e_correctness.log" 2>&1; stamp "correctness e"
tar czf "$OUT/evidence_sanity.tgz" $(ls -d evidence/$(dev)/phase_*)
grep -h "sanity:\|correctness:" "$L"/*.log | cut -c1-300; cat "$L/times.txt"
