// A one-block kernel that spins for `ns` on a private non-blocking stream nothing joins back to
// the caller's: work outside the call's stream, for controls of the confinement check. Include
// after control_base.cuh. (Its name must not contain "spin_kernel": the check finds the call's
// markers, torch.cuda._sleep's kernels, by that name, and a third one makes it fail closed.)
#pragma once

namespace control {

__global__ void stray_wait(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// Launches the spin unless `stream` is being captured or no private stream could be made.
inline int stray_spin(cudaStream_t stream, unsigned long long ns) {
  static cudaStream_t own = [] {
    cudaStream_t created = nullptr;
    if (cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking) != cudaSuccess) created = nullptr;
    cudaGetLastError();  // a failure only means no stray work
    return created;
  }();
  if (own == nullptr || capturing(stream)) return cudaSuccess;
  stray_wait<<<1, 32, 0, own>>>(ns);
  return cudaGetLastError();
}

}  // namespace control
