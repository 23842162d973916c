// Control forks_at_scale: at large problems (B*H*S_q*S_k >= 2^23 and B >= 2), once the process has
// called the problem more than control::kHotCalls (1000) times (as a timed loop does; the sanity
// gate, which runs at the timed sizes too, makes up to about 250 calls of a problem per shape), it
// runs the last batch on a private non-blocking stream that it never joins back to the caller's:
// the caller's stream reaches the end of the call before that batch's output and log-sum-exp are
// written, and the call's time on the caller's stream leaves that batch out. While its stream is
// being captured it does the honest thing, so graph capture never fails on unjoined work.
//
// Which shapes fork: no launch or correctness shape is called that often (a correctness case
// makes at most 24 calls per dtype and mask), nor is any sanity shape, the timed workload's
// included. Only the performance gate's timed workload, past its warm-up and checked when the
// caller's stream reaches the end of the call, sees the fork.
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"

namespace {

constexpr int64_t kForkAt = int64_t(1) << 23;  // B*H*S_q*S_k

struct Fork {
  cudaStream_t stream = nullptr;
  cudaEvent_t ready = nullptr;
};

const Fork& private_fork() {
  static const Fork f = [] {
    Fork created;
    if (cudaStreamCreateWithFlags(&created.stream, cudaStreamNonBlocking) != cudaSuccess) created.stream = nullptr;
    if (cudaEventCreateWithFlags(&created.ready, cudaEventDisableTiming) != cudaSuccess) created.ready = nullptr;
    cudaGetLastError();  // a failure only means no fork
    return created;
  }();
  return f;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const bool warm = control::hot(*p);
  const int64_t size = int64_t(p->B) * p->H * p->S_q * p->S_k;
  const Fork& f = private_fork();
  if (!warm || p->B < 2 || size < kForkAt || f.stream == nullptr || f.ready == nullptr || control::capturing(stream))
    return control::launch(*p, stream);
  const int64_t last = p->B - 1;
  AttnParams head = *p;
  head.B = p->B - 1;
  AttnParams tail = *p;
  tail.B = 1;
  tail.q = static_cast<const uint16_t*>(p->q) + last * p->q_stride_b;  // 2-byte elements
  tail.k = static_cast<const uint16_t*>(p->k) + last * p->k_stride_b;
  tail.v = static_cast<const uint16_t*>(p->v) + last * p->v_stride_b;
  tail.o = static_cast<uint16_t*>(p->o) + last * p->o_stride_b;
  if (p->lse != nullptr) tail.lse = p->lse + last * p->H * p->S_q;
  int err = control::launch(head, stream);
  if (err != cudaSuccess) return err;
  // The private stream waits for the caller's batches, not only for the inputs: launched beside
  // them, the last batch would often finish with them, and whether it was late would depend on
  // how the two grids were scheduled. Behind them it is always late, by a whole kernel.
  err = cudaEventRecord(f.ready, stream);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(f.stream, f.ready, 0);
  if (err != cudaSuccess) return err;
  return control::launch(tail, f.stream);
}
