// control::hot(p): whether this process has called this problem (sizes, dtype and mask) more than
// kHotCalls times, this call included. For the controls that stand for a kernel changing its path
// once a problem is hot and that a sanity check would otherwise meet on that path.
// control::warmed's 100 calls (control_base.cuh) sufficed until the twenty-sixth session; since
// then the sanity gate's queued check enqueues up to 130 calls per order and its threads check 24
// per thread, so at one shape a problem gets 100 to 250 calls, and six such controls were rejected
// at sanity, never reaching the performance checks they prove. The performance gate's warm-up
// makes thousands of calls at these controls' workloads (their gate.yaml warmup_s).
#pragma once
#include <array>
#include <map>
#include <mutex>

#include "control_base.cuh"

namespace control {

constexpr int64_t kHotCalls = 1000;

inline bool hot(const AttnParams& p) {
  static std::mutex lock;
  static std::map<std::array<int64_t, 7>, int64_t> calls;
  const std::lock_guard<std::mutex> hold(lock);
  return ++calls[{p.B, p.H, p.S_q, p.S_k, p.D, p.dtype, p.causal}] > kHotCalls;
}

}  // namespace control
