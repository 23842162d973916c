// Control nondeterministic_at_scale: at large sizes (S_k >= 2048, B*H >= 32), once the process has
// called the problem more than control::kHotCalls (1000) times, every other call takes a second
// path whose pre-scaled Q rounds differently (the softmax scale moved by 2^-21, about 4 units in
// the last place of fp32), as a kernel that picks between two plans by what is running beside it
// would. Each path is right to within a few fp32 units, so errors stay inside tolerance, but repeat
// calls differ in the last bit of the outputs that lie that close to a rounding boundary. Sanity,
// which also runs at the timed workload's size, makes up to about 250 calls of a problem per shape
// there and sees repeatable bits; the performance gate's repeat runs, past its warm-up, do not.
// (Until the sanity gate ran at the timed sizes, this control chose by the clock at every call.)
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"
#include "../_common/hot.cuh"

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  static int64_t calls = 0;
  const bool warm = control::hot(*p);
  AttnParams q = *p;
  if (warm && p->S_k >= 2048 && int64_t(p->B) * p->H >= 32 && (++calls & 1)) q.softmax_scale *= 1.f + 0x1p-21f;
  return control::launch(q, stream);
}
