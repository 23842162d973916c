// Control lossy_bf16_at_scale: lossy_at_scale's "fast path" (every output off by a fixed factor
// where S_k >= 2048 and B*H*S_q >= 65536 query rows) taken in bf16 only. Its workload is timed in
// fp16, and no correctness case has that many query rows against that many keys, so no check
// looked at values where this kernel is wrong until the performance gate value-checked the timed
// sizes in the dtypes they are not timed in (ladder/untimed.py, twenty-seventh session). The
// factor is 2%: lossy_at_scale's 0.3% stays under 2x SDPA's error in bf16, whose unit roundoff is
// eight times fp16's (0.00207 against 0.0021 at (8,16,2048,64), H200, twenty-seventh session).
#define CONTROL_OUT_VALUE(p, row, x) \
  ((p).dtype == ATTN_BF16 && (p).S_k >= 2048 && int64_t((p).B) * (p).H * (p).S_q >= 65536 ? (x) * 1.02f : (x))
#include "../_common/control_base.cuh"
