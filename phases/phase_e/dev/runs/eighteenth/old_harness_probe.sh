#!/bin/bash
# Device-side probe: a control through build, launch, sanity and correctness under an earlier
# harness, to show what the checks of that harness let through. The earlier modules come in
# OLD_MODULES (a folder laid out as the repository, e.g. ladder/gpu/sanity.py from git 1180fe2,
# placed in an untracked folder that travels with the tree); the run happens in a copy of the
# tree, so the real evidence folder is untouched. Prints each gate's status and reason.
#   CONTROL       the control's folder name under tests/controls
#   OLD_MODULES   the folder whose files replace the copy's
set -u
CONTROL=${CONTROL:?}; OLD_MODULES=${OLD_MODULES:?}
COPY=$(mktemp -d); t0=$SECONDS
cp -r ladder kernels phases tests pyproject.toml "$COPY/"
cp -r "$OLD_MODULES"/. "$COPY/"
cd "$COPY" && python3 - "$CONTROL" <<'PY'
import json, sys
from pathlib import Path
from ladder import runner
from ladder.spec import load_spec
spec = load_spec(f"tests/controls/{sys.argv[1]}")
runner.run(spec, gates=["build", "launch", "sanity", "correctness"])
for gate in ("build", "launch", "sanity", "correctness"):
    for f in Path("evidence").glob(f"*/controls/{sys.argv[1]}/{gate}.json"):
        d = json.loads(f.read_text())["derived"]
        print(f"{gate}: {d['status']}: {d['reason'][:400]}")
PY
echo "old-harness probe of $CONTROL: $((SECONDS - t0)) s"
