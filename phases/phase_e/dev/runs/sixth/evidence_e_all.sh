#!/bin/bash
# Device call: phase_e through every gate (its untimed gates beside `ladder controls --resume`),
# then performance and profile alone, the sequence-length chart and `reproduce --only phase_e`.
# The evidence is tarred after each step, so a cut-off call still returns what finished.
# Optionally, the dev harness on the same machine afterwards: DEV_LIBS (check.py LIBS, built
# here: the evidence fills the carry room) and DEV_RUNS ("shapes:name,name ..." per
# time_variants.py run); its logs come back as dev.tgz (at most 8 files come back). E.g.
#   DEV_LIBS=e,e_bn128 DEV_RUNS="short:e,e_bn128" bash evidence_e_all.sh
# Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"
pack() { tar czf "$OUT/evidence_e.tgz" --exclude=calibration.json evidence/h100-80gb-hbm3; }
t0=$SECONDS
python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/phase_e_untimed.log" 2>&1 &
e=$!
python3 -m ladder controls --resume > "$L/controls.log" 2>&1
wait $e
echo "untimed+controls $((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder run phase_e --gate performance --gate profile > "$L/phase_e_perf.log" 2>&1
echo "perf+profile $((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder seqlen > "$L/seqlen.log" 2>&1
echo "seqlen $((SECONDS - t0)) s" >> "$L/times.txt"; pack
python3 -m ladder reproduce --only phase_e > "$L/reproduce.log" 2>&1
echo "reproduce $((SECONDS - t0)) s" >> "$L/times.txt"; pack
tail -n 6 "$L"/*.log "$L/times.txt"
if [ -n "${DEV_LIBS:-}" ]; then
  D=/tmp/dev_logs; mkdir -p $D
  python3 phases/phase_e/dev/check.py --out $D --bundle "" --stages build --libs "$DEV_LIBS" > $D/dev_build.log 2>&1
  for run in ${DEV_RUNS:-}; do
    python3 phases/phase_e/dev/time_variants.py --build phases/phase_e/dev/.build --shapes "${run%%:*}" \
      --names "${run#*:}" > "$D/tv_${run%%:*}.log" 2>&1
  done
  tail -n 14 $D/tv_*.log
  tar czf "$OUT/dev.tgz" -C /tmp dev_logs
fi
