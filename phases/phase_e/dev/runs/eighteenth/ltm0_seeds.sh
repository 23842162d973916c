#!/bin/bash
# Eighteenth session, device call 15 (H100, dev): e_ltm0 (L_TENSOR_D64 0 as the default) through
# phase_e's build, launch, sanity and correctness gates in a throw-away copy of the tree, then the
# correctness gate at trial seeds 1-4. Logs only; the copy's records are thrown away.
set -u
L="$OUT/logs"; mkdir -p "$L"; t0=$SECONDS
rm -rf /tmp/ltm0tree; cp -r . /tmp/ltm0tree
cd /tmp/ltm0tree
sed -i 's/^#define L_TENSOR_D64 1$/#define L_TENSOR_D64 0/' phases/phase_e/kernel.cu
grep -n "^#define L_TENSOR_D64" phases/phase_e/kernel.cu > "$L/define.txt"
timeout 330 python3 -m ladder run phase_e --gate build --gate launch --gate sanity --gate correctness > "$L/phase_e_seed0.log" 2>&1
echo "gates to correctness (seed 0) $((SECONDS - t0)) s" >> "$L/times.txt"
for s in ${SEEDS:-1 2 3 4}; do
  python3 phases/phase_e/dev/gate_seed.py phases/phase_e/gate.yaml "$s"
  timeout 60 python3 -m ladder run phase_e --gate correctness > "$L/phase_e_seed$s.log" 2>&1
  echo "seed $s $((SECONDS - t0)) s" >> "$L/times.txt"
done
grep -h -e "sanity:" -e "correctness:" "$L"/*_seed*.log | cut -c1-400
cat "$L/define.txt" "$L/times.txt"
