// Tenth session: what attn_span.cu and launch_probe.cu share (each keeps its own flush and hold
// kernels, which stamp different points).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "attn_abi.h"

extern "C" int attn_span_read(unsigned long long* out3);
extern "C" int attn_span_reset();

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(t)::"memory");
  return t;
}

// fp16 q, k, v, o of shape [B, H, S, D] (contiguous, q = k = v = 0x3c3c: 1.06), an fp32 lse,
// and the AttnParams of a self-attention call on them.
inline AttnParams contiguous_params(int B, int H, int S, int D, int causal) {
  const size_t n = size_t(B) * H * S * D;
  void *q, *k, *v, *o;
  float* lse;
  CK(cudaMalloc(&q, n * 2)); CK(cudaMalloc(&k, n * 2)); CK(cudaMalloc(&v, n * 2)); CK(cudaMalloc(&o, n * 2));
  CK(cudaMalloc(&lse, size_t(B) * H * S * 4));
  CK(cudaMemset(q, 0x3c, n * 2)); CK(cudaMemset(k, 0x3c, n * 2)); CK(cudaMemset(v, 0x3c, n * 2));
  AttnParams p = {};
  p.q = q; p.k = k; p.v = v; p.o = o; p.lse = lse;
  p.q_stride_b = p.k_stride_b = p.v_stride_b = p.o_stride_b = int64_t(H) * S * D;
  p.q_stride_h = p.k_stride_h = p.v_stride_h = p.o_stride_h = int64_t(S) * D;
  p.q_stride_s = p.k_stride_s = p.v_stride_s = p.o_stride_s = D;
  p.B = B; p.H = H; p.S_q = S; p.S_k = S; p.D = D; p.softmax_scale = 0.125f; p.causal = causal; p.dtype = ATTN_FP16;
  return p;
}

// A host flag the hold kernel spins on (mapped memory): *host = 1 releases it.
struct MappedFlag {
  int* host;
  int* dev;
  MappedFlag() {
    CK(cudaHostAlloc(&host, 4, cudaHostAllocMapped));
    CK(cudaHostGetDevicePointer(&dev, host, 0));
  }
};
