// Standalone host driver linked with one phase's kernel: runs attn_fwd on random inputs with no
// torch, so compute-sanitizer and ncu see only this kernel, and a phase can be checked by hand.
//   usage: attn_driver B H S_q S_k D fp16|bf16 causal(0|1) [iters] [--check]
// --check compares against a float64 host reference and exits 3 above the tolerance.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "attn_abi.h"

#define CHECK_CUDA(call)                                                          \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_),       \
              __FILE__, __LINE__, cudaGetErrorString(e_));                        \
      return 2;                                                                   \
    }                                                                             \
  } while (0)

static uint16_t to_bits(float x, int dtype) {
  uint16_t b;
  if (dtype == ATTN_FP16) { __half h = __float2half_rn(x); memcpy(&b, &h, 2); }
  else { __nv_bfloat16 h = __float2bfloat16_rn(x); memcpy(&b, &h, 2); }
  return b;
}

static float from_bits(uint16_t b, int dtype) {
  if (dtype == ATTN_FP16) { __half h; memcpy(&h, &b, 2); return __half2float(h); }
  __nv_bfloat16 h; memcpy(&h, &b, 2); return __bfloat162float(h);
}

int main(int argc, char** argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: %s B H S_q S_k D fp16|bf16 causal [iters] [--check]\n", argv[0]);
    return 1;
  }
  const int B = atoi(argv[1]), H = atoi(argv[2]), Sq = atoi(argv[3]), Sk = atoi(argv[4]);
  const int D = atoi(argv[5]);
  const int dtype = strcmp(argv[6], "bf16") == 0 ? ATTN_BF16 : ATTN_FP16;
  const int causal = atoi(argv[7]);
  const int iters = argc > 8 && argv[8][0] != '-' ? atoi(argv[8]) : 1;
  bool check = false;
  for (int i = 8; i < argc; ++i) check |= strcmp(argv[i], "--check") == 0;

  const size_t nq = (size_t)B * H * Sq * D, nk = (size_t)B * H * Sk * D;
  std::vector<uint16_t> hq(nq), hk(nk), hv(nk), ho(nq);
  srand(1234);
  auto rnd = [] { return (float)rand() / RAND_MAX * 2.f - 1.f; };
  for (auto& x : hq) x = to_bits(rnd(), dtype);
  for (auto& x : hk) x = to_bits(rnd(), dtype);
  for (auto& x : hv) x = to_bits(rnd(), dtype);

  void *dq, *dk, *dv, *dout;
  float* dlse;
  // Exact sizes, no padding, so memcheck sees any read past the end of a tensor.
  CHECK_CUDA(cudaMalloc(&dq, nq * 2));
  CHECK_CUDA(cudaMalloc(&dk, nk * 2));
  CHECK_CUDA(cudaMalloc(&dv, nk * 2));
  CHECK_CUDA(cudaMalloc(&dout, nq * 2));
  CHECK_CUDA(cudaMalloc(&dlse, (size_t)B * H * Sq * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dq, hq.data(), nq * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dk, hk.data(), nk * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dv, hv.data(), nk * 2, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout, 0xff, nq * 2));  // NaN in both fp16 and bf16

  AttnParams p{};
  p.q = dq; p.k = dk; p.v = dv; p.o = dout; p.lse = dlse;
  p.q_stride_b = (int64_t)H * Sq * D; p.q_stride_h = (int64_t)Sq * D; p.q_stride_s = D;
  p.k_stride_b = (int64_t)H * Sk * D; p.k_stride_h = (int64_t)Sk * D; p.k_stride_s = D;
  p.v_stride_b = p.k_stride_b; p.v_stride_h = p.k_stride_h; p.v_stride_s = D;
  p.o_stride_b = p.q_stride_b; p.o_stride_h = p.q_stride_h; p.o_stride_s = D;
  p.B = B; p.H = H; p.S_q = Sq; p.S_k = Sk; p.D = D;
  p.softmax_scale = 1.f / sqrtf((float)D);
  p.causal = causal; p.dtype = dtype;

  for (int i = 0; i < iters; ++i) {
    int err = attn_fwd(&p, 0);
    if (err != cudaSuccess) {
      fprintf(stderr, "attn_fwd returned %s\n", cudaGetErrorName((cudaError_t)err));
      return 2;
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(ho.data(), dout, nq * 2, cudaMemcpyDeviceToHost));

  if (check) {
    double worst = 0;
    std::vector<double> s(Sk);
    for (int bh = 0; bh < B * H; ++bh)
      for (int i = 0; i < Sq; ++i) {
        const uint16_t* q = &hq[((size_t)bh * Sq + i) * D];
        double m = -INFINITY, l = 0;
        int n_keys = causal ? (i + 1 < Sk ? i + 1 : Sk) : Sk;
        for (int j = 0; j < n_keys; ++j) {
          const uint16_t* k = &hk[((size_t)bh * Sk + j) * D];
          double acc = 0;
          for (int d = 0; d < D; ++d) acc += (double)from_bits(q[d], dtype) * from_bits(k[d], dtype);
          s[j] = acc * p.softmax_scale;
          m = s[j] > m ? s[j] : m;
        }
        for (int j = 0; j < n_keys; ++j) l += exp(s[j] - m);
        for (int d = 0; d < D; ++d) {
          double acc = 0;
          for (int j = 0; j < n_keys; ++j)
            acc += exp(s[j] - m) * from_bits(hv[((size_t)bh * Sk + j) * D + d], dtype);
          double got = from_bits(ho[((size_t)bh * Sq + i) * D + d], dtype);
          double err = fabs(got - acc / l);
          if (!(err <= worst)) worst = err;  // NaN propagates as the worst error
        }
      }
    const double tol = dtype == ATTN_FP16 ? 4e-3 : 2e-2;
    printf("max_abs_err %.3e (tolerance %.1e)\n", worst, tol);
    if (!(worst <= tol)) return 3;
  }
  printf("ok\n");
  return 0;
}
