// Control lse_off_at_scale: a correct output everywhere, but on large problems (S_k >= 2048 and
// B*H*S_q >= 65536 query rows) a second kernel on the caller's stream adds 0.01 to every
// log-sum-exp, as a wrong change of log base or a dropped term would only on a path taken at
// scale. No correctness case has that many query rows against that many keys; sanity at the
// timed sizes checks lse for completeness and NaN, and the timed re-checks read the output only,
// so no check valued lse where this kernel is wrong until the performance gate's untimed checks
// did (ladder/untimed.py, twenty-eighth session).
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {

__global__ void raise_lse(float* lse, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    lse[i] += 0.01f;
}

}  // namespace

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  int err = control::launch(*p, stream);
  const int64_t rows = int64_t(p->B) * p->H * p->S_q;
  if (err != cudaSuccess || p->lse == nullptr || p->S_k < 2048 || rows < 65536) return err;
  raise_lse<<<264, 256, 0, stream>>>(p->lse, rows);
  return cudaGetLastError();
}
