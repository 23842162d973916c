"""ladder: takes an attention-kernel phase through build -> launch -> sanity -> correctness ->
performance (-> profile), writing evidence for every gate. Importing this package needs only the
standard library; each module imports what its concern needs."""

# Part of every evidence file's source hash: bump it when a gate's meaning changes, so evidence
# recorded under the old meaning shows up as stale.
HARNESS_VERSION = "2"
