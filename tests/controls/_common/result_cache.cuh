// Shared by the controls that return a remembered result (sampled_cache, memo_cache): a
// device-side verdict the attention kernel reads to skip its work, and the copies between o/lse
// and the remembered result that run on every call, each doing nothing unless the verdict is
// its own. The host never learns the verdict, so a call stays stream-ordered and capturable.
// Include before control_base.cuh. A control with one verdict for all calls defines
//   #define CONTROL_SKIP_BLOCK(p, b, h, q_head) (control_cache_hit != 0)
// and passes result_cache::global_verdict() where a verdict's address is asked for.
#pragma once
#include "attn_common.cuh"

// The device's verdict for the call in flight (1: the remembered result is this call's), for
// controls with one verdict.
__device__ int control_cache_hit;

namespace result_cache {

// For calls that are never remembered: a verdict left over from the last call must not skip this one.
__global__ void clear_hit(int* verdict) { *verdict = 0; }

// Copies o (16-byte vectors) and lse (floats, when dst_lse is not null) only when *verdict is
// `when`: remembered -> call on a hit (1), call -> remembered on a miss (0).
__global__ void copy_if(const int* verdict, int when, uint4* dst_o, const uint4* src_o, int64_t n_o, float* dst_lse,
                        const float* src_lse, int64_t n_lse) {
  if (*verdict != when) return;
  const int64_t step = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (int64_t i = first; i < n_o; i += step) dst_o[i] = src_o[i];
  if (dst_lse != nullptr)
    for (int64_t i = first; i < n_lse; i += step) dst_lse[i] = src_lse[i];
}

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 2048;

inline unsigned blocks_for(int64_t n) {
  const int64_t b = (n + kThreads - 1) / kThreads;
  return unsigned(b < kMaxBlocks ? (b > 0 ? b : 1) : kMaxBlocks);
}

inline int launch_copy(const int* verdict, int when, void* dst_o, const void* src_o, int64_t o_bytes,
                       float* dst_lse, const float* src_lse, int64_t n_lse, cudaStream_t stream) {
  const int64_t n_o = o_bytes / int64_t(sizeof(uint4));  // D * 2 bytes per row: a multiple of 16
  copy_if<<<blocks_for(n_o > n_lse ? n_o : n_lse), kThreads, 0, stream>>>(
      verdict, when, static_cast<uint4*>(dst_o), static_cast<const uint4*>(src_o), n_o, dst_lse, src_lse, n_lse);
  return cudaGetLastError();
}

inline int clear(int* verdict, cudaStream_t stream) {
  clear_hit<<<1, 1, 0, stream>>>(verdict);
  return cudaGetLastError();
}

// The device address of control_cache_hit.
inline int* global_verdict() {
  static int* addr = nullptr;
  if (addr == nullptr) cudaGetSymbolAddress(reinterpret_cast<void**>(&addr), control_cache_hit);
  return addr;
}

}  // namespace result_cache
