#!/bin/bash
# synccheck bisect: each driver on two shapes, the full log of each run under $OUT/sync.log
B=phases/phase_e/dev/.build
for d in driver_ns_old driver_ns_p0o0 driver_ns_p0 driver_ns; do
  for args in "1 2 200 150 128 bf16 1" "4 12 385 300 64 fp16 0"; do
    r=$($B/$d $args --check 2>&1 | tail -1)
    echo "==== $d $args plain: $r" | tee -a $OUT/sync.log
    timeout 60 compute-sanitizer --tool synccheck $B/$d $args > /tmp/s.log 2>&1
    echo "==== $d $args synccheck rc=$? $(grep 'ERROR SUMMARY' /tmp/s.log)" | tee -a $OUT/sync.log
    head -40 /tmp/s.log >> $OUT/sync.log
  done
done
