#!/bin/bash
# The device copies the whole working tree and refuses one over 64 MiB; the tracked evidence alone
# is several times that. A dev call needs none of it, and a gate run only its own machine's
# records of the gates before it. `out [DIR...]` moves the named folders (default: every
# evidence/<machine>) to $HOLD and lists them there; `back` moves each listed one back. Nothing is
# deleted or overwritten: `out` refuses while anything is held, `back` if a folder has reappeared.
#   bash phases/phase_e/dev/hold_evidence.sh out                      # before a dev call
#   bash phases/phase_e/dev/hold_evidence.sh out evidence/h100-80gb-hbm3 evidence/h200/phase_a
#   bash phases/phase_e/dev/hold_evidence.sh back                     # right after the call
# then merge_device_evidence.py (beside this file) takes the calls' tars in.
set -eu
cd "$(dirname "$0")/../../.."
HOLD=${HOLD:-/tmp/ladder-hold}
case "${1:-}" in
  out)
    shift
    [ -e "$HOLD" ] && { echo "hold_evidence: $HOLD exists: run 'back' first" >&2; exit 1; }
    dirs=("$@"); [ ${#dirs[@]} -eq 0 ] && dirs=(evidence/*/)
    for d in "${dirs[@]}"; do [ -e "${d%/}" ] || { echo "hold_evidence: no ${d%/}" >&2; exit 1; }; done
    mkdir -p "$HOLD"
    for d in "${dirs[@]}"; do
      d=${d%/}; mkdir -p "$HOLD/$(dirname "$d")"; mv "$d" "$HOLD/$d"; echo "$d" >> "$HOLD/held"; echo "held $d"
    done
    git ls-files -z --others --exclude-standard -c | xargs -0 stat -c %s 2>/dev/null |
      awk '{s+=$1} END {printf "the tree now travels as %.1f MiB (limit 64)\n", s/1048576}' ;;
  back)
    [ -f "$HOLD/held" ] || { echo "hold_evidence: nothing held in $HOLD" >&2; exit 1; }
    while read -r d; do [ -e "$d" ] && { echo "hold_evidence: $d exists again: not overwritten" >&2; exit 1; }; done < "$HOLD/held"
    while read -r d; do mkdir -p "$(dirname "$d")"; mv "$HOLD/$d" "$d"; echo "back $d"; done < "$HOLD/held"
    rm -rf "$HOLD" ;;
  *) echo "usage: hold_evidence.sh out [DIR...] | back" >&2; exit 2 ;;
esac
