// The launch ABI every phase's kernel.cu implements. Plain C so the harness can mirror it
// with ctypes: ladder/abi.py holds the mirror of AttnParams and reads ATTN_ABI_VERSION and the
// dtype codes from this file; tests/test_abi.py compiles a probe with nvcc and checks that the
// mirror's size and field offsets match this struct.
#pragma once
#include <stdint.h>
#include <cuda_runtime.h>

#define ATTN_ABI_VERSION 1

enum AttnDtype { ATTN_FP16 = 0, ATTN_BF16 = 1 };

// Tensors are [B, H, S, D] with any batch/head/row strides (in elements, 64-bit: a batch
// stride may exceed 2^31) and unit stride in D. Every row starts 16-byte aligned: base
// pointers are 16-byte aligned and every stride is a multiple of 8 elements. A kernel returns
// cudaErrorInvalidValue for anything it does not support and never computes a wrong answer
// instead. Any B, H, S_q, S_k >= 1 (B or H may exceed 65535). Rows outside [0, S) of a view
// are not part of the tensor: they may hold anything (NaN included) and must not be written.
// o has the dtype of q/k/v. lse, when not NULL, is a contiguous fp32 [B, H, S_q] log-sum-exp
// of the scaled scores (natural log), as needed by a backward pass.
// Causal masking is top-left aligned, as torch's is_causal: query i sees keys j <= i.
// A call runs on `stream` alone (ordered after the work before it on that stream, complete
// for the work after it), may be captured into a CUDA graph, and is deterministic.
typedef struct AttnParams {
  const void* q;
  const void* k;
  const void* v;
  void* o;
  float* lse;
  int64_t q_stride_b, q_stride_h, q_stride_s;
  int64_t k_stride_b, k_stride_h, k_stride_s;
  int64_t v_stride_b, v_stride_h, v_stride_s;
  int64_t o_stride_b, o_stride_h, o_stride_s;
  int32_t B, H, S_q, S_k, D;
  float softmax_scale;
  int32_t causal;
  int32_t dtype;
} AttnParams;

#ifdef __cplusplus
#define ATTN_EXTERN_C extern "C"
#else
#define ATTN_EXTERN_C
#endif
#define ATTN_EXPORT ATTN_EXTERN_C __attribute__((visibility("default")))

// Returns a cudaError_t: cudaSuccess, the launch error, or cudaErrorInvalidValue for
// parameters the kernel does not support (the caller reports it; nothing is launched).
ATTN_EXPORT int attn_fwd(const AttnParams* p, cudaStream_t stream);
ATTN_EXPORT int attn_abi_version(void);
// Dynamic shared memory (bytes) one block of the kernel requests for this head dim and dtype,
// 0 when it uses only static shared memory. A host function: the build gate calls it with no
// GPU present to check the spec's shared-memory limit.
ATTN_EXPORT int attn_smem_bytes(int head_dim, int dtype);
