#!/bin/bash
# Twenty-first session, first device call after the harness change (warm checks and the empty
# kernel's launch allowance in the performance gate): the GPU-marked tests, then
# `ladder controls --resume` (the controls whose performance records went stale, and the new
# ones). Tars the controls' evidence into $OUT. Needs LADDER_GIT_SHA/LADDER_GIT_DIRTY.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
dev() { ls -t evidence/*/*.json evidence/*/phase_*/*.json evidence/*/controls/*/*.json 2>/dev/null | head -1 | cut -d/ -f2; }
stamp() { echo "$1 $((SECONDS - t0)) s" >> "$L/times.txt"; }
REQUIRE_GPU=1 timeout 200 python3 -m pytest -m gpu -q -p no:cacheprovider > "$L/pytest_gpu.log" 2>&1; stamp pytest_gpu
timeout 380 python3 -m ladder controls --resume > "$L/controls.log" 2>&1; stamp controls
tar czf "$OUT/evidence_controls.tgz" "evidence/$(dev)/controls" "evidence/$(dev)/controls.json" "evidence/$(dev)/controls.md"
tail -n 4 "$L"/*.log "$L/times.txt"
