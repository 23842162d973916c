// Tenth session: where the performance gate's event-mode gap lies, from globaltimer stamps.
// Linked with kernel.cu built with span.patch and -DATTN_SPAN=1, which records the grid's first
// and last CTA entry and its last consumer exit. A flush kernel (256 MB of stores, the L2 flush)
// stamps its last CTA's exit, a hold kernel its release. Modes, one sample of each per round:
//   E   flush, hold, start event, attn_fwd, end event          (the gate's event sample)
//   G   hold, start event, graph [flush, attn_fwd], end event   (the gate's cold graph, one call)
//   GE  flush, hold, start event, graph [attn_fwd], end event   (a lone call launched as a graph)
//   EN  hold, start event, attn_fwd, end event                  (no flush)
// Per mode, medians in us over the rounds: the event window; flush end -> first CTA entry;
// hold release -> first entry; first -> last entry; first entry -> last exit (the grid's span).
//   usage: attn_span B H S D [causal] [rounds]
#include <algorithm>
#include <vector>
#include "probe_common.cuh"

__device__ unsigned long long g_marks[2];  // flush end, hold release
__global__ void flush_kernel(int4* buf, size_t n16, int v) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n16; i += size_t(gridDim.x) * blockDim.x)
    buf[i] = make_int4(v, v, v, v);
  __syncthreads();
  if (threadIdx.x == 0) atomicMax(&g_marks[0], gtime());
}
__global__ void hold(volatile int* flag) {
  while (*flag == 0) { }
  g_marks[1] = gtime();
}

int main(int argc, char** argv) {
  if (argc < 5) { printf("usage: %s B H S D [causal] [rounds]\n", argv[0]); return 1; }
  const int B = atoi(argv[1]), H = atoi(argv[2]), S = atoi(argv[3]), D = atoi(argv[4]);
  const int causal = argc > 5 ? atoi(argv[5]) : 0;
  const int rounds = argc > 6 ? atoi(argv[6]) : 300;
  AttnParams p = contiguous_params(B, H, S, D, causal);
  MappedFlag flag;
  const size_t fb = 256u << 20;
  int4* flush; CK(cudaMalloc(&flush, fb));
  int sms = 0; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  auto call = [&] { const int r = attn_fwd(&p, s); if (r != 0) { printf("attn_fwd %d\n", r); exit(1); } };
  auto do_flush = [&](int i) { flush_kernel<<<sms * 8, 512, 0, s>>>(flush, fb / 16, i); };
  for (int i = 0; i < 20; ++i) { do_flush(i); call(); }
  CK(cudaStreamSynchronize(s));
  auto capture = [&](bool with_flush) {
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    if (with_flush) do_flush(7);
    call();
    CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0)); CK(cudaGraphDestroy(g));
    return ge;
  };
  cudaGraphExec_t g_fc = capture(true), g_c = capture(false);
  const char* names[4] = {"E ", "G ", "GE", "EN"};
  // per mode: event, flush->entry, hold->entry, entry spread, span
  std::vector<double> t[4][5];
  const unsigned long long zero2[2] = {0, 0};
  for (int r = 0; r < rounds + 20; ++r) {
    for (int mode = 0; mode < 4; ++mode) {
      CK(cudaStreamSynchronize(s));
      if (attn_span_reset() != 0) { printf("attn_span_reset failed\n"); return 1; }
      CK(cudaMemcpyToSymbol(g_marks, zero2, sizeof(zero2)));
      *(volatile int*)flag.host = 0;
      if (mode == 0 || mode == 2) do_flush(r & 0xff);
      hold<<<1, 1, 0, s>>>(flag.dev);
      CK(cudaEventRecord(e0, s));
      if (mode == 0 || mode == 3) call();
      else CK(cudaGraphLaunch(mode == 1 ? g_fc : g_c, s));
      CK(cudaEventRecord(e1, s));
      *(volatile int*)flag.host = 1;
      CK(cudaStreamSynchronize(s));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      unsigned long long sp[3], mk[2];
      if (attn_span_read(sp) != 0) { printf("attn_span_read failed\n"); return 1; }
      CK(cudaMemcpyFromSymbol(mk, g_marks, sizeof(mk)));
      if (r < 20) continue;
      t[mode][0].push_back(ms * 1000.0);
      t[mode][1].push_back(mode == 3 ? 0.0 : (double(sp[0]) - double(mk[0])) / 1000.0);
      t[mode][2].push_back(mode == 1 ? 0.0 : (double(sp[0]) - double(mk[1])) / 1000.0);
      t[mode][3].push_back((double(sp[1]) - double(sp[0])) / 1000.0);
      t[mode][4].push_back((double(sp[2]) - double(sp[0])) / 1000.0);
    }
  }
  printf("(%d,%d,%d,%d)%s, medians of %d rounds, us\n", B, H, S, D, causal ? " causal" : "", rounds);
  printf("mode  event   flush->entry  hold->entry  entry_spread  span(entry->exit)\n");
  for (int m = 0; m < 4; ++m) {
    double med[5];
    for (int i = 0; i < 5; ++i) {
      std::sort(t[m][i].begin(), t[m][i].end());
      med[i] = t[m][i][t[m][i].size() / 2];
    }
    printf("%s   %7.2f %10.2f %12.2f %12.2f %14.2f\n", names[m], med[0], med[1], med[2], med[3], med[4]);
  }
  return 0;
}
