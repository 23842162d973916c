#!/bin/bash
# Twenty-second session: the untimed gates after a harness change that stales sanity and
# correctness of every phase (the sharing checks judged by one rule, ladder/gates/sharing.py;
# two more same-address variants; the long residue sweep; a smaller float64 reference chunk).
# phase_a's sanity runs first, alone, as a probe of the new variants: if it fails, nothing else
# runs. Then build, sanity and correctness of the other phases and phase_a's correctness, side
# by side (with 2 GB reference chunks a dozen processes fit in an H100's memory). Tars the
# device's phase evidence into $OUT. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/phase_*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
pack() { tar czf "$OUT/evidence_gates.tgz" $(ls -d evidence/$(dev)/phase_*); }
timeout 150 python3 -m ladder run phase_a --gate build --gate launch --gate sanity > "$L/phase_a_sanity.log" 2>&1
stamp "phase_a sanity"
if ! grep -q "sanity: PASS" "$L/phase_a_sanity.log"; then pack; tail -n 20 "$L/phase_a_sanity.log"; exit 1; fi
pids=()
timeout 420 python3 -m ladder run phase_a --gate correctness > "$L/phase_a_correctness.log" 2>&1 & pids+=($!)
for ph in phase_b phase_c phase_d phase_e; do
  timeout 420 python3 -m ladder run $ph --gate build --gate launch --gate sanity --gate correctness \
    > "$L/${ph}_gates.log" 2>&1 &
  pids+=($!)
done
wait "${pids[@]}"; stamp "gates b-e, correctness a"
pack
grep -h "sanity:\|correctness:" "$L"/*.log | cut -c1-300; cat "$L/times.txt"
