// Control host_race: each call copies its parameters into one static host struct, does some
// host work (a few microseconds, as a plan lookup would), then launches from the struct. From one
// host thread that is right; from two at once a call can launch with the other thread's
// parameters. Only calls from two host threads at once (ladder/gpu/threads.py) see it.
#include <chrono>
#define CONTROL_CUSTOM_ENTRY
#include "../_common/control_base.cuh"

namespace {
AttnParams g_params;  // shared by every caller: the defect
}

ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream) {
  if (!control::supported(p)) return cudaErrorInvalidValue;
  g_params = *p;
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(20);
  while (std::chrono::steady_clock::now() < until) {
  }
  return control::launch(g_params, stream);
}
