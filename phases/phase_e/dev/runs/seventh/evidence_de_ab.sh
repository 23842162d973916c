#!/bin/bash
# Device call: evidence_de.sh (phase_d and phase_e, every gate), the sequence-length chart and
# `reproduce --only phase_e`, then a dev A/B of the wait guards (e = WAIT_GUARD 2, e_wg1, e_wg0;
# time_variants.py `ab`, 20 rounds, two orders). Logs come back as logs.tgz, evidence as
# evidence.tgz. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
D=phases/phase_e/dev/runs/seventh
bash $D/evidence_de.sh > /dev/null 2>&1
L="$OUT/logs"
pack() { tar czf "$OUT/evidence.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
echo "seqlen +$((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
echo "reproduce +$((SECONDS - t0)) s" >> "$L/times.txt"; pack
B=phases/phase_e/dev/.build
python3 phases/phase_e/dev/check.py --out /tmp/ab_build --bundle "" --stages build --libs e,e_wg0,e_wg1 > "$L/dev_build.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 20 --names e,e_wg1,e_wg0 > "$L/tv.log" 2>&1
python3 phases/phase_e/dev/time_variants.py --build $B --shapes ab --rounds 20 --names e_wg0,e_wg1,e > "$L/tv2.log" 2>&1
echo "dev a/b +$((SECONDS - t0)) s" >> "$L/times.txt"
tail -n 3 "$L"/phase_*_perf.log "$L"/*untimed.log "$L/reproduce.log"; cat "$L/times.txt"; tail -n 8 "$L/tv.log" "$L/tv2.log"
tar czf "$OUT/logs.tgz" -C "$OUT" logs; rm -rf "$L"
