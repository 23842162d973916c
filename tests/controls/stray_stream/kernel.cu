// Control stray_stream: a correct attention call, then a one-block kernel that spins for 200 us
// on a private non-blocking stream that nothing joins back to the caller's. The output and lse
// are complete on the caller's stream, bit for bit what the base kernel gives, so every value,
// ordering and concurrency check passes; the spin runs outside the call's window, beside
// whatever the caller runs next (in the performance gate, a competitor being timed). While the
// caller's stream is being captured it launches nothing extra, so graph capture is unaffected.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/stray.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const int err = control::launch(*p, stream);
  return err != cudaSuccess ? err : control::stray_spin(stream, 200000);
}
