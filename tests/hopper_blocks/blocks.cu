// Hopper building blocks, each checked on its own by tests/test_hopper_blocks.py (numpy computes
// the expected values). Self-contained on purpose: these wrappers are written independently of
// phases/phase_d/kernel.cu, so a shared misunderstanding of a layout shows up as a disagreement.
//
//   tma_tile_load   a 4-D TMA load {D, S, H, B} of a 128-row box, 128-byte swizzle, into shared
//                   memory, dumped raw: the host checks every element against the swizzle formula
//                   (16-byte chunk c of row r lands at chunk c ^ (r % 8)) and the zero fill of
//                   rows past S.
//   wgmma_ss        one warpgroup, D[64 x 128] = A[64 x K] . B[128 x K]^T over K/16 wgmma
//                   m64n128k16, both operands K-major in swizzled shared memory (the Q.K^T path).
//   wgmma_rs        D[64 x 128] = A[64 x K] . B[K x 128], A in registers, B MN-major (stored
//                   [k][n], n contiguous, two 64-column slabs) read through imm-trans-b = 1 (P.V).
//   wgmma_chain     S = A . B^T (SS), the fp32 S accumulator repacked as fp16 A fragments, then
//                   O = S . V (RS): the register reuse the attention kernel relies on.
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xcompiler -fPIC -shared
#include <cstdint>
#include <cstring>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define EXPORT extern "C" __attribute__((visibility("default")))
#define CK(x)                                   \
  do {                                          \
    cudaError_t e_ = (x);                       \
    if (e_ != cudaSuccess) return int(e_);      \
  } while (0)

namespace {

__device__ __forceinline__ uint32_t saddr(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// Byte offset of element (r, c) of a [rows][64] 16-bit slab in the 128-byte-swizzled layout.
__host__ __device__ __forceinline__ uint32_t sw128(int r, int c) {
  return uint32_t(r * 128 + ((((c / 8) ^ (r % 8))) * 16) + (c % 8) * 2);
}

// 128B-swizzle descriptor: start>>4 | LBO>>4 << 16 | SBO>>4 << 32 | 1 << 62.
__device__ __forceinline__ uint64_t desc128(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(lbo >> 4) << 16) | (uint64_t(sbo >> 4) << 32) |
         (uint64_t(1) << 62);
}

// d[64 x 128] (+)= A[64 x 16] . B[128 x 16]^T, both K-major in shared memory (fp16 in, fp32 acc).
__device__ __forceinline__ void wgmma_ss_m64n128k16(float (&d)[64], uint64_t da, uint64_t db, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(acc));
}

// d[64 x 128] (+)= A[64 x 16] (registers) . B[16 x 128], B MN-major in shared memory (imm-trans-b 1).
__device__ __forceinline__ void wgmma_rs_m64n128k16(float (&d)[64], const uint32_t (&a)[4], uint64_t db, int acc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
      :
        "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

// Accumulator (m64nN) fragment -> row-major global D[64][128] per the documented layout:
// warp w rows 16w.., lane (g, t): d[4i + {0,1}] = (16w + g, 8i + 2t + {0,1}), d[4i + {2,3}] row + 8.
__device__ void store_acc(const float (&d)[64], float* out) {
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < 16; ++i)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      out[(16 * w + g + 8 * (e / 2)) * 128 + 8 * i + 2 * t + (e % 2)] = d[4 * i + e];
}

__device__ __forceinline__ void fence_wait_all() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}

template <int N> __device__ __forceinline__ void pin(float (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(r[i])::"memory");
}

// ---- 1. TMA ------------------------------------------------------------------------------
__global__ void tma_kernel(const __grid_constant__ CUtensorMap map, int slabs, int row0, int h, int b,
                           uint16_t* out) {
  extern __shared__ unsigned char raw[];
  unsigned char* sm = raw + ((1024 - (saddr(raw) & 1023)) & 1023);
  __shared__ alignas(8) uint64_t bar;
  const uint32_t tile = saddr(sm), mbar = saddr(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(mbar));
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(mbar),
                 "r"(slabs * 128 * 128) : "memory");
    for (int s = 0; s < slabs; ++s)
      asm volatile(
          "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(tile + s * 128 * 128),
          "l"(reinterpret_cast<uint64_t>(&map)), "r"(mbar), "r"(64 * s), "r"(row0), "r"(h), "r"(b)
          : "memory");
  }
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(mbar) : "memory");
  const uint16_t* src = reinterpret_cast<const uint16_t*>(sm);
  for (int i = threadIdx.x; i < slabs * 128 * 64; i += blockDim.x) out[i] = src[i];
}

// ---- 2. SS wgmma ---------------------------------------------------------------------------
// A [64][K] and B [128][K] row-major fp16 in global; K in {16, 64, 128}. Shared: A as K/64
// (rounded up) slabs of [64][64], B as slabs of [128][64], both swizzled, tiles 1024-aligned.
template <int K>
__global__ void ss_kernel(const __half* A, const __half* B, float* out) {
  extern __shared__ unsigned char raw[];
  unsigned char* sm = raw + ((1024 - (saddr(raw) & 1023)) & 1023);
  const int slabs = (K + 63) / 64;
  unsigned char* sa = sm;                          // slabs * 8 KB
  unsigned char* sb = sm + slabs * 64 * 128;       // slabs * 16 KB
  for (int i = threadIdx.x; i < 64 * K; i += blockDim.x) {
    const int r = i / K, c = i % K;
    *reinterpret_cast<__half*>(sa + (c / 64) * 64 * 128 + sw128(r, c % 64)) = A[i];
  }
  for (int i = threadIdx.x; i < 128 * K; i += blockDim.x) {
    const int r = i / K, c = i % K;
    *reinterpret_cast<__half*>(sb + (c / 64) * 128 * 128 + sw128(r, c % 64)) = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // generic writes -> wgmma reads
  __syncthreads();
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.f;
  pin(d);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) {
    const uint64_t da = desc128(saddr(sa) + (kk / 4) * 64 * 128 + (kk % 4) * 32, 16, 1024);
    const uint64_t db = desc128(saddr(sb) + (kk / 4) * 128 * 128 + (kk % 4) * 32, 16, 1024);
    wgmma_ss_m64n128k16(d, da, db, 1);
  }
  fence_wait_all();
  pin(d);
  store_acc(d, out);
}

// ---- 3. RS wgmma, B MN-major ---------------------------------------------------------------
// A [64][K], B [K][128] row-major fp16 in global. Shared: B as 2 slabs (columns 0-63, 64-127) of
// [K][64], swizzled. Descriptor: LBO = K*128 (slab to slab), SBO = 1024 (8 k-rows), +2048 per k16.
__device__ __forceinline__ void load_a_frag(const __half* A, int lda, int kk, uint32_t (&a)[4]) {
  const int w = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int r0 = 16 * w + g, c0 = 16 * kk + 2 * t;
  const int rr[4] = {r0, r0 + 8, r0, r0 + 8}, cc[4] = {c0, c0, c0 + 8, c0 + 8};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    __half2 v = __halves2half2(A[rr[i] * lda + cc[i]], A[rr[i] * lda + cc[i] + 1]);
    memcpy(&a[i], &v, 4);
  }
}

template <int K>
__global__ void rs_kernel(const __half* A, const __half* B, float* out) {
  extern __shared__ unsigned char raw[];
  unsigned char* sm = raw + ((1024 - (saddr(raw) & 1023)) & 1023);
  for (int i = threadIdx.x; i < K * 128; i += blockDim.x) {
    const int r = i / 128, c = i % 128;
    *reinterpret_cast<__half*>(sm + (c / 64) * K * 128 + sw128(r, c % 64)) = B[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.f;
  uint32_t a[K / 16][4];
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk) load_a_frag(A, K, kk, a[kk]);
  pin(d);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int kk = 0; kk < K / 16; ++kk)
    wgmma_rs_m64n128k16(d, a[kk], desc128(saddr(sm) + kk * 2048, K * 128, 1024), 1);
  fence_wait_all();
  pin(d);
  store_acc(d, out);
}

// ---- 4. SS -> registers -> RS ---------------------------------------------------------------
// S = A[64][64] . B[128][64]^T (SS, N = 128 keys), P = fp16(S) repacked as A fragments
// (P[j] = pack(S[2j], S[2j+1])), O = P . V[128][128] (RS, V MN-major).
__global__ void chain_kernel(const __half* A, const __half* B, const __half* V, float* out) {
  extern __shared__ unsigned char raw[];
  unsigned char* sm = raw + ((1024 - (saddr(raw) & 1023)) & 1023);
  unsigned char* sa = sm;                 // [64][64]      8 KB
  unsigned char* sb = sm + 8192;          // [128][64]    16 KB
  unsigned char* sv = sm + 8192 + 16384;  // 2 x [128][64] 32 KB
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x)
    *reinterpret_cast<__half*>(sa + sw128(i / 64, i % 64)) = A[i];
  for (int i = threadIdx.x; i < 128 * 64; i += blockDim.x)
    *reinterpret_cast<__half*>(sb + sw128(i / 64, i % 64)) = B[i];
  for (int i = threadIdx.x; i < 128 * 128; i += blockDim.x) {
    const int r = i / 128, c = i % 128;
    *reinterpret_cast<__half*>(sv + (c / 64) * 128 * 128 + sw128(r, c % 64)) = V[i];
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  float s[64];
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int kk = 0; kk < 4; ++kk)
    wgmma_ss_m64n128k16(s, desc128(saddr(sa) + kk * 32, 16, 1024), desc128(saddr(sb) + kk * 32, 16, 1024),
                        kk > 0);
  fence_wait_all();
  pin(s);
  uint32_t p[32];
#pragma unroll
  for (int j = 0; j < 32; ++j) {
    __half2 v = __floats2half2_rn(s[2 * j], s[2 * j + 1]);
    memcpy(&p[j], &v, 4);
  }
  float o[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) o[i] = 0.f;
  pin(o);
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
  for (int kk = 0; kk < 8; ++kk) {
    const uint32_t a[4] = {p[4 * kk], p[4 * kk + 1], p[4 * kk + 2], p[4 * kk + 3]};
    wgmma_rs_m64n128k16(o, a, desc128(saddr(sv) + kk * 2048, 128 * 128, 1024), 1);
  }
  fence_wait_all();
  pin(o);
  store_acc(o, out);
}

template <typename K, typename... Args>
int launch(K kernel, int smem, Args... args) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<1, 128, smem>>>(args...);
  CK(cudaGetLastError());
  return int(cudaDeviceSynchronize());
}

template <typename T>
int to_device(T** dst, const void* src, size_t bytes) {
  CK(cudaMalloc(dst, bytes));
  if (src) CK(cudaMemcpy(*dst, src, bytes, cudaMemcpyHostToDevice));
  return 0;
}

}  // namespace

// src: the whole strided storage (elements), strides in elements for (S, H, B). out: slabs x
// [128][64] raw shared-memory image. Returns a cudaError_t, or 1000 + CUresult if encoding fails,
// 2000 if the driver entry point is missing.
EXPORT int tma_tile_load(const uint16_t* src, long long src_elems, int D, int S, int H, int B,
                         long long ss, long long sh, long long sb, int row0, int h, int b, uint16_t* out) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !fn) return 2000;
  uint16_t *dsrc, *dout;
  const int slabs = D / 64;
  if (int e = to_device(&dsrc, src, size_t(src_elems) * 2)) return e;
  if (int e = to_device(&dout, nullptr, size_t(slabs) * 128 * 64 * 2)) return e;
  CUtensorMap map;
  const cuuint64_t dims[4] = {cuuint64_t(D), cuuint64_t(S), cuuint64_t(H), cuuint64_t(B)};
  const cuuint64_t strides[3] = {cuuint64_t(ss) * 2, cuuint64_t(sh) * 2, cuuint64_t(sb) * 2};
  const cuuint32_t box[4] = {64, 128, 1, 1}, elem[4] = {1, 1, 1, 1};
  const CUresult r = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn)(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 4, dsrc, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) return 1000 + int(r);
  int e = launch(tma_kernel, slabs * 16384 + 1024, map, slabs, row0, h, b, dout);
  if (!e) e = int(cudaMemcpy(out, dout, size_t(slabs) * 128 * 64 * 2, cudaMemcpyDeviceToHost));
  cudaFree(dsrc);
  cudaFree(dout);
  return e;
}

EXPORT int wgmma_ss(const uint16_t* A, const uint16_t* B, int K, float* out) {
  if (K != 16 && K != 64 && K != 128) return int(cudaErrorInvalidValue);
  __half *da, *db;
  float* dout;
  if (int e = to_device(&da, A, 64 * K * 2)) return e;
  if (int e = to_device(&db, B, 128 * K * 2)) return e;
  if (int e = to_device(&dout, nullptr, 64 * 128 * 4)) return e;
  const int smem = (K + 63) / 64 * (8192 + 16384) + 1024;
  int e = K == 16 ? launch(ss_kernel<16>, smem, (const __half*)da, (const __half*)db, dout)
        : K == 64 ? launch(ss_kernel<64>, smem, (const __half*)da, (const __half*)db, dout)
                  : launch(ss_kernel<128>, smem, (const __half*)da, (const __half*)db, dout);
  if (!e) e = int(cudaMemcpy(out, dout, 64 * 128 * 4, cudaMemcpyDeviceToHost));
  cudaFree(da); cudaFree(db); cudaFree(dout);
  return e;
}

EXPORT int wgmma_rs(const uint16_t* A, const uint16_t* B, int K, float* out) {
  if (K != 16 && K != 64 && K != 128) return int(cudaErrorInvalidValue);
  __half *da, *db;
  float* dout;
  if (int e = to_device(&da, A, 64 * K * 2)) return e;
  if (int e = to_device(&db, B, K * 128 * 2)) return e;
  if (int e = to_device(&dout, nullptr, 64 * 128 * 4)) return e;
  const int smem = K * 256 + 1024;
  int e = K == 16 ? launch(rs_kernel<16>, smem, (const __half*)da, (const __half*)db, dout)
        : K == 64 ? launch(rs_kernel<64>, smem, (const __half*)da, (const __half*)db, dout)
                  : launch(rs_kernel<128>, smem, (const __half*)da, (const __half*)db, dout);
  if (!e) e = int(cudaMemcpy(out, dout, 64 * 128 * 4, cudaMemcpyDeviceToHost));
  cudaFree(da); cudaFree(db); cudaFree(dout);
  return e;
}

EXPORT int wgmma_chain(const uint16_t* A, const uint16_t* B, const uint16_t* V, float* out) {
  __half *da, *db, *dv;
  float* dout;
  if (int e = to_device(&da, A, 64 * 64 * 2)) return e;
  if (int e = to_device(&db, B, 128 * 64 * 2)) return e;
  if (int e = to_device(&dv, V, 128 * 128 * 2)) return e;
  if (int e = to_device(&dout, nullptr, 64 * 128 * 4)) return e;
  int e = launch(chain_kernel, 8192 + 16384 + 32768 + 1024, (const __half*)da, (const __half*)db,
                 (const __half*)dv, dout);
  if (!e) e = int(cudaMemcpy(out, dout, 64 * 128 * 4, cudaMemcpyDeviceToHost));
  cudaFree(da); cudaFree(db); cudaFree(dv); cudaFree(dout);
  return e;
}
