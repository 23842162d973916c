// Control stray_at_scale: stray_stream's defect at large problems only, once they have been
// called often. When B*H*S_q*S_k >= 2^23 and the process has called the problem more than
// control::kHotCalls (1000) times (and the stream is not being captured), after a correct attention
// call it launches a one-block kernel that spins for 200 us on a private non-blocking stream
// the caller never waits for. Sanity (which also runs at the timed workload's size, in about 40
// calls) sees a confined kernel; the output is right everywhere. At the performance gate's
// workload, past its warm-up, the spin runs beside whatever is timed next.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"
#include "../_common/stray.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const bool warm = control::hot(*p);
  const int err = control::launch(*p, stream);
  const int64_t size = int64_t(p->B) * p->H * p->S_q * p->S_k;
  return err != cudaSuccess || !warm || size < (int64_t(1) << 23) ? err : control::stray_spin(stream, 200000);
}
