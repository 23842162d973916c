// Ninth session: what makes a kernel's event-timed window longer than the same launch replayed
// from a one-call CUDA graph (the performance gate's "leak" figure)? A trivial kernel launched
// the gate's way (a blocking kernel holds the stream while the host enqueues start event, launch,
// end event; then the hold ends), against the same launch captured in a graph, for: parameter
// block size (16 B against 640 B, as phase_e's four tensor maps plus KParams), dynamic shared
// memory (none against 145 KB), CTAs (64 against 2048), and the PDL launch attribute.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

struct Big { alignas(64) unsigned char b[640]; };
struct Small { int* out; int pad[2]; };

__global__ void hold(volatile int* flag) { while (*flag == 0) { } }
__global__ void k_small(const __grid_constant__ Small p) {
  extern __shared__ int sm[];
  if (threadIdx.x == 0 && blockIdx.x == 0) { sm[0] = 1; p.out[0] = sm[0]; }
}
__global__ void k_big(const __grid_constant__ Big p, int* out) {
  extern __shared__ int sm[];
  if (threadIdx.x == 0 && blockIdx.x == 0) { sm[0] = p.b[3]; out[0] = sm[0]; }
}

struct Cfg { bool big; int smem; int ctas; bool pdl; bool set_attr; };

static cudaError_t launch(const Cfg& c, cudaStream_t s, int* out) {
  if (c.set_attr) {  // as phase_d's and phase_e's launch() do on every call
    const cudaError_t e = c.big ? cudaFuncSetAttribute(k_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 148 * 1024)
                                : cudaFuncSetAttribute(k_small, cudaFuncAttributeMaxDynamicSharedMemorySize, 148 * 1024);
    if (e != cudaSuccess) return e;
  }
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(c.ctas); cfg.blockDim = dim3(384); cfg.dynamicSmemBytes = c.smem > 16 ? c.smem : 16;  // the kernels write sm[0] cfg.stream = s;
  cudaLaunchAttribute a[1]; int na = 0;
  if (c.pdl) { a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; a[0].val.programmaticStreamSerializationAllowed = 1; na = 1; }
  cfg.attrs = a; cfg.numAttrs = na;
  if (c.big) { Big b = {}; b.b[3] = 7; return cudaLaunchKernelEx(&cfg, k_big, b, out); }
  Small p = {out, {0, 0}};
  return cudaLaunchKernelEx(&cfg, k_small, p);
}

int main() {
  CK(cudaFuncSetAttribute(k_small, cudaFuncAttributeMaxDynamicSharedMemorySize, 148 * 1024));
  CK(cudaFuncSetAttribute(k_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 148 * 1024));
  int* out; CK(cudaMalloc(&out, 64));
  int* hflag; CK(cudaHostAlloc(&hflag, 4, cudaHostAllocMapped));
  int* dflag; CK(cudaHostGetDevicePointer(&dflag, hflag, 0));
  char* flush; const size_t fb = 256u << 20; CK(cudaMalloc(&flush, fb));
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const Cfg cfgs[] = {{false, 0, 64, false, false}, {true, 0, 64, false, false}, {false, 145 * 1024, 64, false, false},
                      {true, 145 * 1024, 64, false, false}, {true, 145 * 1024, 64, true, false}, {false, 0, 2048, false, false},
                      {true, 145 * 1024, 2048, false, false}, {true, 145 * 1024, 2048, true, false},
                      {true, 145 * 1024, 64, true, true}, {true, 145 * 1024, 2048, true, true}};
  printf("params smem_KB ctas pdl set_attr | event_us graph_us gap_us (medians of 300, each behind a 256 MB memset and a hold)\n");
  for (const Cfg& c : cfgs) {
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    CK(launch(c, s, out));
    CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
    std::vector<float> ev, gr;
    for (int r = 0; r < 330; ++r) {
      for (int mode = 0; mode < 2; ++mode) {
        CK(cudaMemsetAsync(flush, r & 0xff, fb, s));
        *(volatile int*)hflag = 0;
        hold<<<1, 1, 0, s>>>(dflag);
        CK(cudaEventRecord(e0, s));
        if (mode == 0) CK(launch(c, s, out)); else CK(cudaGraphLaunch(ge, s));
        CK(cudaEventRecord(e1, s));
        *(volatile int*)hflag = 1;
        CK(cudaStreamSynchronize(s));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
        if (r >= 30) (mode == 0 ? ev : gr).push_back(ms * 1000.f);
      }
    }
    std::sort(ev.begin(), ev.end()); std::sort(gr.begin(), gr.end());
    const float me = ev[ev.size() / 2], mg = gr[gr.size() / 2];
    printf("%6s %6d %5d %3d %3d | %8.2f %8.2f %6.2f\n", c.big ? "640B" : "16B", c.smem / 1024, c.ctas, int(c.pdl), int(c.set_attr), me, mg, me - mg);
    CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
  }
  return 0;
}
