// Control legacy_stream: launches on the legacy default stream (0) whatever stream it is given.
// When the caller uses the default stream that is the same thing; on any other stream the kernel
// is ordered after nothing the caller queued.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t /*stream*/) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  return control::launch(*p, nullptr);
}
