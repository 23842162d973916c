# Thin wrappers. Each target runs a nox session where nox is installed, and the same harness
# command directly where it is not (the air-gapped GPU machine has no nox).
PY ?= python3
# Recursive (=) so it is looked up when a recipe runs, after `setup` may have installed nox.
NOX = $(shell $(PY) -c "import nox" 2>/dev/null && echo "$(PY) -m nox")
# $(call session,<nox session>,<direct command>)
session = $(if $(NOX),$(NOX) -s $(1) --,$(2))

.PHONY: setup test evidence check-evidence report controls calibrate reproduce seqlen clean list

setup:
	$(PY) -m ladder.bootstrap

test: setup
	$(call session,tests,$(PY) -m pytest)

evidence: setup
	$(call session,evidence,$(PY) -m ladder evidence)

phase_%: setup
	$(call session,phase_$*,$(PY) -m ladder run phase_$*)

check-evidence: setup
	$(call session,check_evidence,$(PY) -m ladder check-evidence)

report:
	$(call session,report,$(PY) -m ladder report)

controls: setup
	$(call session,controls,$(PY) -m ladder controls)

calibrate: setup
	$(call session,calibrate,$(PY) -m ladder calibrate)

reproduce: setup
	$(call session,reproduce,$(PY) -m ladder reproduce)

seqlen: setup
	$(call session,seqlen,$(PY) -m ladder seqlen)

list:
	@$(PY) -m ladder list

clean:
	rm -rf .ladder-run .pytest_cache
