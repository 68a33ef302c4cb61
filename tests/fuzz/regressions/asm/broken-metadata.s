	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdgpu_metadata
---
amdhsa.kernels: [ {
  .name: k
  ]: "
	.end_amdgpu_metadata
