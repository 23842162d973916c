// Control skips_in_capture: during CUDA-graph capture it returns success without launching
// anything (a warm-up shortcut gone wrong). Eager calls are correct; a replayed graph computes
// nothing.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) == cudaSuccess && status == cudaStreamCaptureStatusActive)
    return cudaSuccess;
  return control::launch(*p, stream);
}
