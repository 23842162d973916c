// Control stray_stream: a correct attention call, then a one-block kernel that spins for
// kSpinNs on a private non-blocking stream that nothing joins back to the caller's. The output
// and lse are complete on the caller's stream, bit for bit what the base kernel gives, so every
// value, ordering and concurrency check passes; the spin runs outside the call's window, beside
// whatever the caller runs next (in the performance gate, a competitor being timed). While the
// caller's stream is being captured it launches nothing extra, so graph capture is unaffected.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {

constexpr unsigned long long kSpinNs = 200000;

__global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

cudaStream_t private_stream() {
  static cudaStream_t s = [] {
    cudaStream_t created = nullptr;
    if (cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking) != cudaSuccess) created = nullptr;
    cudaGetLastError();  // a failure only means no stray work
    return created;
  }();
  return s;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const int err = control::launch(*p, stream);
  if (err != cudaSuccess || control::capturing(stream) || private_stream() == nullptr) return err;
  spin<<<1, 32, 0, private_stream()>>>(kSpinNs);
  return cudaGetLastError();
}
