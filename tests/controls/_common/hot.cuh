// control::hot(p): whether this process has called this problem (sizes, dtype and mask) more than
// kHotCalls times, this call included. For the controls that stand for a kernel changing its path
// once a problem is hot and that a sanity check would otherwise meet on that path.
// control::warmed's 100 calls (control_base.cuh) sufficed until the twenty-sixth session; since
// then the sanity gate's queued check enqueues up to 130 calls per order and its threads check 24
// per thread, so at one shape a problem gets more than 100 calls (100 to 250, counted from the
// checks' code, not measured), and six such controls were rejected at sanity (H200, twenty-sixth
// session, call 3), never reaching the performance checks they prove.
// Why a second counter beside control::warmed rather than a threshold parameter on it: every
// control includes control_base.cuh, so changing it stales every control's records, and the
// session that wrote this had no device time left to re-make them. Fold the two into one
// called_more_than(p, n) when the controls are next re-run on every machine.
// The performance gate's warm-up makes thousands of calls at these controls' workloads (their
// gate.yaml warmup_s).
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
