// Control one_percent_work: correct wherever the correctness and sanity gates look, but on large
// problems (S_k >= 2048 and B*H >= 32, as only timed workloads are) that the process has called
// more than control::kWarmCalls times, it attends only to the first S_k/128 keys (under 1%), so
// large workloads "run" faster than the hardware allows. Sanity, which also runs at the timed
// workload's size, makes about 40 calls per shape there: all-zero queries would see the missing
// keys. (Until sanity ran at the timed sizes, the cut applied at every call of such a size.)
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  const bool warm = control::warmed(*p);
  AttnParams q = *p;
  if (warm && p->S_k >= 2048 && int64_t(p->B) * p->H >= 32) q.S_k = p->S_k / 128;
  return control::launch(q, stream);
}
