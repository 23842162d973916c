// Control syncs_in_call: synchronises the stream after launching, to report asynchronous errors
// early. Correct answers, but a call that synchronises cannot be captured into a CUDA graph.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const int err = control::launch(*p, stream);
  return err != cudaSuccess ? err : int(cudaStreamSynchronize(stream));
}
