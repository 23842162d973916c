#!/bin/bash
# Dev check of the confinement check and the 70000-row floor cases (evidence not kept).
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
(python3 -m ladder run phase_a --gate build --gate launch --gate sanity > "$L/a.log" 2>&1; echo "a $((SECONDS-t0))" >> "$L/times.txt") &
(python3 -m ladder run phase_d --gate build --gate launch --gate sanity --gate correctness > "$L/d.log" 2>&1; echo "d $((SECONDS-t0))" >> "$L/times.txt") &
(python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/e.log" 2>&1; echo "e $((SECONDS-t0))" >> "$L/times.txt") &
python3 -m ladder controls --only stray_stream --only l2_persist --only key_count_16bit > "$L/controls.log" 2>&1
echo "controls $((SECONDS-t0))" >> "$L/times.txt"
wait
python3 - > "$L/conf_sample.txt" 2>&1 <<'PY'
import json, glob
for p in sorted(glob.glob("evidence/*/phase_*/sanity.json")) + sorted(glob.glob("evidence/*/controls/*/sanity.json")):
    d = json.load(open(p))
    print(p, d["derived"].get("status"), d["derived"].get("reason", "")[:600])
    for name, got in d["raw"]["configs"].items():
        r = (got["child"].get("result") or {})
        print(" start", r.get("device_state_at_start"))
        for row in r.get("shapes", [])[:1]:
            print(" conf", json.dumps(row.get("figures", {}).get("confinement"))[:1500])
        break
for p in sorted(glob.glob("evidence/*/phase_*/correctness.json")) + sorted(glob.glob("evidence/*/controls/key_count_16bit/correctness.json")):
    d = json.load(open(p)); print(p, d["derived"].get("status"), d["derived"].get("reason", "")[:400])
PY
tail -n 4 "$L"/*.log; cat "$L/times.txt" "$L/conf_sample.txt" | head -80
