#!/bin/bash
# between.sh TGZ SHA: between two H100 calls on a warm machine (it goes back after 30 s idle):
# put the held evidence back, merge the call's tar, and stage phases a-e up to correctness again,
# with phase_e's performance record, which reproduce reads.
set -eu
cd "$(dirname "$0")/../../../../.."
S=phases/phase_e/dev/runs/twentyseventh/stage.sh; M=h100-80gb-hbm3
bash $S back
python3 phases/phase_e/dev/merge_device_evidence.py "$1@$2"
MACHINE=$M bash $S phases
cp -p /tmp/stage-hold/evidence/$M/phase_e/performance.json evidence/$M/phase_e/ 2>/dev/null || true
