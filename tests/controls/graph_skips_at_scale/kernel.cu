// Control graph_skips_at_scale: while its stream is being captured into a CUDA graph, the problem
// is large (S_q >= 2048, B*H >= 32, as only timed workloads are) and the process has called it
// more than control::kHotCalls (1000) times, it attends to one key in 256. Eager calls are right
// everywhere, and so are graph replays at every shape sanity tries (the timed workload's size
// included, where sanity makes up to about 250 calls of a problem); a timed graph replay, past
// the performance gate's warm-up, is faster than the hardware allows.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const bool capturing = cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
                         status == cudaStreamCaptureStatusActive;
  const bool warm = control::hot(*p);
  AttnParams q = *p;
  if (warm && capturing && p->S_q >= 2048 && int64_t(p->B) * p->H >= 32) q.S_k = p->S_k / 256 > 0 ? p->S_k / 256 : 1;
  return control::launch(q, stream);
}
