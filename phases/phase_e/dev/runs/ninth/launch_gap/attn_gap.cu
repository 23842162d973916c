// Ninth session: the performance gate's event-mode gap on phase_e's own kernel (linked with
// kernel.cu, like kernels/standalone_main.cu). Per shape, medians of 300 samples, each behind a
// 256 MB memset (the L2 flush) and a hold (a kernel spinning on a host flag while the host
// enqueues), in us:
//   event     start event, attn_fwd, end event (the gate's event sample);
//   ms+event  start event, a 4-byte memset, attn_fwd, end event (cuDNN's calls start with one);
//   cold      a graph of N x (flush, attn_fwd) less a graph of N flushes, per call (the gate's
//             "cold graph");
//   warm      a graph of N back-to-back calls, per call;
//   wide      as event, behind a hold of one spinning CTA per SM instead of one CTA (are idle
//             SMs slow to start the call?).
//   usage: attn_gap B H S D [causal]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include "attn_abi.h"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void hold(volatile int* flag) { while (*flag == 0) { } }
// (The wide hold asks for 120 KB of shared memory so that no two of its CTAs share an SM.)

int main(int argc, char** argv) {
  if (argc < 5) { printf("usage: %s B H S D [causal]\n", argv[0]); return 1; }
  const int B = atoi(argv[1]), H = atoi(argv[2]), S = atoi(argv[3]), D = atoi(argv[4]);
  const int causal = argc > 5 ? atoi(argv[5]) : 0;
  const size_t n = size_t(B) * H * S * D;
  void *q, *k, *v, *o; float* lse;
  CK(cudaMalloc(&q, n * 2)); CK(cudaMalloc(&k, n * 2)); CK(cudaMalloc(&v, n * 2)); CK(cudaMalloc(&o, n * 2));
  CK(cudaMalloc(&lse, size_t(B) * H * S * 4));
  CK(cudaMemset(q, 0x3c, n * 2)); CK(cudaMemset(k, 0x3c, n * 2)); CK(cudaMemset(v, 0x3c, n * 2));
  AttnParams p = {};
  p.q = q; p.k = k; p.v = v; p.o = o; p.lse = lse;
  const int64_t ss = D, sh = int64_t(S) * D, sb = int64_t(H) * S * D;
  p.q_stride_b = p.k_stride_b = p.v_stride_b = p.o_stride_b = sb;
  p.q_stride_h = p.k_stride_h = p.v_stride_h = p.o_stride_h = sh;
  p.q_stride_s = p.k_stride_s = p.v_stride_s = p.o_stride_s = ss;
  p.B = B; p.H = H; p.S_q = S; p.S_k = S; p.D = D; p.softmax_scale = 0.125f; p.causal = causal; p.dtype = ATTN_FP16;
  int* hflag; CK(cudaHostAlloc(&hflag, 4, cudaHostAllocMapped));
  int* dflag; CK(cudaHostGetDevicePointer(&dflag, hflag, 0));
  char* flush; const size_t fb = 256u << 20; CK(cudaMalloc(&flush, fb));
  int* tiny; CK(cudaMalloc(&tiny, 4));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  auto call = [&] { const int r = attn_fwd(&p, s); if (r != 0) { printf("attn_fwd %d\n", r); exit(1); } };
  for (int i = 0; i < 20; ++i) call();
  CK(cudaStreamSynchronize(s));
  // Graphs: N flushes; N (flush, call); N calls.
  const int N = 20;
  cudaGraphExec_t gf, gc, gw;
  auto capture = [&](int what) {
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < N; ++i) {
      if (what != 2) CK(cudaMemsetAsync(flush, i, fb, s));
      if (what != 0) call();
    }
    CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0)); CK(cudaGraphDestroy(g));
    return ge;
  };
  gf = capture(0); gc = capture(1); gw = capture(2);
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaFuncSetAttribute(hold, cudaFuncAttributeMaxDynamicSharedMemorySize, 120 * 1024));
  std::vector<float> t[6];  // event, ms+event, graph flushes, graph cold, graph warm, wide
  for (int r = 0; r < 330; ++r) {
    for (int mode = 0; mode < 6; ++mode) {
      CK(cudaMemsetAsync(flush, r & 0xff, fb, s));
      *(volatile int*)hflag = 0;
      hold<<<mode == 5 ? sms : 1, 1, mode == 5 ? 120 * 1024 : 0, s>>>(dflag);
      CK(cudaEventRecord(e0, s));
      if (mode == 0 || mode == 5) call();
      else if (mode == 1) { CK(cudaMemsetAsync(tiny, 0, 4, s)); call(); }
      else CK(cudaGraphLaunch(mode == 2 ? gf : mode == 3 ? gc : gw, s));
      CK(cudaEventRecord(e1, s));
      *(volatile int*)hflag = 1;
      CK(cudaStreamSynchronize(s));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r >= 30) t[mode].push_back(ms * 1000.f);
    }
  }
  float med[6];
  for (int i = 0; i < 6; ++i) { std::sort(t[i].begin(), t[i].end()); med[i] = t[i][t[i].size() / 2]; }
  const float cold = (med[3] - med[2]) / N, warm = med[4] / N;
  printf("(%d,%d,%d,%d)%s event %.2f  ms+event %.2f  cold %.2f  warm %.2f  gap %.2f  gap(ms+event) %.2f  wide %.2f  gap(wide) %.2f\n",
         B, H, S, D, causal ? " causal" : "", med[0], med[1], cold, warm, med[0] - cold, med[1] - cold, med[5], med[5] - cold);
  return 0;
}
