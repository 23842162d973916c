"""ladder: takes an attention-kernel phase through build -> launch -> sanity -> correctness ->
performance (-> profile), writing evidence for every gate. Importing this package needs only the
standard library; each module imports what its concern needs."""
