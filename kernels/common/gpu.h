// The few runtime calls the reference kernels' runner uses, for HIP (hipcc)
// and CUDA (nvcc) alike. Kernels stay in HIP syntax; under nvcc the names map
// to CUDA's. Debian's HIP 5.2 headers do not compile against CUDA 13, so this
// header, not HIP's CUDA backend, is the bridge.
#pragma once

#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#include <hip/hip_runtime.h>
#define GPU_PLATFORM "hip"
#else
#include <cuda_runtime.h>
#define GPU_PLATFORM "cuda"
using hipError_t = cudaError_t;
using hipEvent_t = cudaEvent_t;
using hipDeviceProp_t = cudaDeviceProp;
#define hipSuccess cudaSuccess
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipGetErrorString cudaGetErrorString
#define hipGetLastError cudaGetLastError
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemset cudaMemset
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipFuncGetAttributes cudaFuncGetAttributes
#define hipFuncAttributes cudaFuncAttributes
// HIP's nontemporal store; CUDA's closest is a streaming store (st.global.cs).
template <typename T>
__device__ inline void __builtin_nontemporal_store(T value, T *address) { __stcs(address, value); }
#endif
