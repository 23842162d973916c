// Can the exponentials (MUFU.EX2) and the tensor cores (HGMMA) of one SM run at full rate at the
// same time? A dev probe for phase_e's d=64 loop (NOTES.md, thirty-second session).
//
// Method: one CTA of three warpgroups per SM, 132 CTAs. Each warpgroup takes a role from the
// mode string, one letter per warpgroup:
//   G  one d=64 step's tensor work per iteration, as phase_e's consumer issues it: Q·Kᵀ as
//      4 x m64n128k16 (both operands in shared memory), P·V as 8 x m64n64k16 (A from registers),
//      one commit, then wait for both;
//   M  one 64-row x 128-key tile's softmax per iteration, per thread as the kernel's (64 scores:
//      FMNMX, FFMA, MUFU.EX2, FADD per score, plus an FADD feeding the result back);
//   -  idle.
// Each warpgroup's thread 0 reads clock64 after a CTA-wide barrier and after its own loop; the
// probe prints, per role and mode, the median over CTAs of cycles per iteration. Alone, G needs
// 512 cycles per iteration at the SM's 4096 fp16 FLOP per cycle, and M 512 at 16 exponentials
// per cycle. If the two pipes share an SM freely, "G M" runs each at its alone rate; if they
// exclude each other, each slows towards the sum. Shared-memory operands are whatever is there
// (timing only, nothing is checked).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

#include "wgmma_ops.inc"

__device__ __forceinline__ uint64_t desc(uint32_t smem_addr, uint32_t lbo, uint32_t sbo) {
  // No swizzle: 8-row x 16-byte core matrices, LBO between them along K, SBO along M/N.
  return uint64_t((smem_addr >> 4) & 0x3FFF) | (uint64_t((lbo >> 4) & 0x3FFF) << 16) |
         (uint64_t((sbo >> 4) & 0x3FFF) << 32);
}

__device__ __forceinline__ float ex2(float x) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

struct Roles {
  char r[3];
};

__global__ void __launch_bounds__(384, 1) probe(Roles roles, int iters_g, int iters_m, long long* out,
                                                float* sink) {
  extern __shared__ __align__(1024) unsigned char smem[];
  const int wg = threadIdx.x / 128;
  const char role = roles.r[wg];
  const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  for (int i = threadIdx.x; i < 48 * 1024 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(smem)[i] = 0x3c003c00u;
  __syncthreads();
  long long t0 = clock64();
  float keep = 0.f;
  if (role == 'G') {
    float s[64], o[32];
    uint32_t a[4] = {0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u};
#pragma unroll
    for (int i = 0; i < 32; ++i) o[i] = 0.f;
    const uint64_t qd = desc(base, 128, 256), kd = desc(base + 8192, 128, 256), vd = desc(base + 24576, 128, 256);
#pragma unroll 1
    for (int it = 0; it < iters_g; ++it) {
      asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
      for (int k = 0; k < 4; ++k) mma_ss_n128(s, qd + 128 * k, kd + 256 * k, k > 0);
#pragma unroll
      for (int k = 0; k < 8; ++k) mma_rs_n64(o, a, vd + 128 * k, 1);
      asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
      a[0] ^= __float_as_uint(s[0]) & 1u;  // a use of S, so nothing is dropped
    }
#pragma unroll
    for (int i = 0; i < 32; ++i) keep += o[i];
  } else if (role == 'M') {
    float s[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) s[i] = -0.001f * float((threadIdx.x + 7 * i) & 255);
    float mx = -1e30f, sum = 0.f;
    const float c = 1.4426950408889634f;
#pragma unroll 1
    for (int it = 0; it < iters_m; ++it) {
#pragma unroll
      for (int i = 0; i < 64; ++i) mx = fmaxf(mx, s[i]);
      const float mc = mx * c;  // the exponentials wait for the row max, as in the kernel
#pragma unroll
      for (int i = 0; i < 64; ++i) {
        const float p = ex2(fmaf(s[i], c, -mc));
        sum += p;
        s[i] = p - 1.0f;
      }
    }
    keep = sum + mx;
  }
  long long t1 = clock64();
  if (threadIdx.x % 128 == 0) {
    out[(blockIdx.x * 3 + wg) * 2 + 0] = t0;
    out[(blockIdx.x * 3 + wg) * 2 + 1] = t1;
  }
  if (keep == 12345.f) sink[threadIdx.x] = keep;
}

#define CK(x)                                                                       \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

int main(int argc, char** argv) {
  const int iters_g = argc > 1 ? atoi(argv[1]) : 2000;
  const int iters_m = argc > 2 ? atoi(argv[2]) : 2000;
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int smem = 48 * 1024;
  CK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  long long* out;
  float* sink;
  CK(cudaMalloc(&out, sizeof(long long) * sms * 3 * 2));
  CK(cudaMalloc(&sink, sizeof(float) * 384));
  const char* modes[] = {"G--", "M--", "GG-", "MM-", "MMM", "GM-", "GMM", "GGM"};
  printf("SMs %d, iterations G %d M %d; cycles per iteration, median over CTAs (alone: G 512, M 512 ideal)\n",
         sms, iters_g, iters_m);
  for (int rep = 0; rep < 2; ++rep) {
    for (const char* md : modes) {
      Roles r;
      memcpy(r.r, md, 3);
      probe<<<sms, 384, smem>>>(r, iters_g, iters_m, out, sink);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<long long> h(sms * 3 * 2);
      CK(cudaMemcpy(h.data(), out, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
      printf("rep %d mode %s:", rep, md);
      for (int w = 0; w < 3; ++w) {
        if (md[w] == '-') continue;
        std::vector<double> c;
        for (int b = 0; b < sms; ++b)
          c.push_back(double(h[(b * 3 + w) * 2 + 1] - h[(b * 3 + w) * 2 + 0]) / (md[w] == 'G' ? iters_g : iters_m));
        std::sort(c.begin(), c.end());
        printf("  wg%d %c %.0f", w, md[w], c[c.size() / 2]);
      }
      printf("\n");
    }
  }
  return 0;
}
