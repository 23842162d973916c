#!/bin/bash
# Thirty-fourth session, the H200 call: the chained kernel's item 1 in detail (e_stamps_chain,
# built on the CPU with stamps_chain.patch applied, then kernel.cu put back), the coarse item
# chain again (e_stamps), then phase_e's H200 records re-made (`make phase_e`, `reproduce --only
# phase_e`) over twentyseventh/stage.sh's staged evidence (MACHINE=h200). Needs LADDER_GIT_SHA
# and LADDER_GIT_DIRTY. DEADLINE: seconds from the start (575).
set -u
t0=$SECONDS; D=${DEADLINE:-575}
L=/tmp/stamps_logs; mkdir -p "$L"
B=phases/phase_e/dev/.build
for run in e_stamps_chain:8,16,2048,64 e_stamps_chain:4,16,4096,64 e_stamps:8,16,2048,64; do
  lib=${run%%:*}; shape=${run#*:}
  timeout 60 python3 phases/phase_e/dev/seed_chain.py --build $B --lib $lib --shape $shape \
    > "$L/${lib}_${shape//,/x}.log" 2>&1
  echo "$lib $shape rc $?"; tail -4 "$L/${lib}_${shape//,/x}.log"
done
tar czf "$OUT/stamps_logs.tgz" -C /tmp stamps_logs
echo "stamps: $((SECONDS - t0)) s"
STEPS="make rest" DEADLINE=$((D - (SECONDS - t0))) bash phases/phase_e/dev/runs/thirtyfirst/h100.sh
echo "total $((SECONDS - t0)) s"
