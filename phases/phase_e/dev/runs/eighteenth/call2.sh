#!/bin/bash
# H100 call 2: `ladder controls --resume` under the same-address check (every control whose
# sanity record it stales, and the new plan_cache), then the control evidence tarred.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
timeout 570 python3 -m ladder controls --resume > "$L/controls.log" 2>&1
echo "controls --resume: rc $? $((SECONDS - t0)) s" >> "$L/times.txt"
d=evidence/h100-80gb-hbm3
tar czf "$OUT/controls.tgz" $d/controls $d/controls.json $d/controls.md $d/history.jsonl
tail -n 5 "$L/controls.log" "$L/times.txt"
