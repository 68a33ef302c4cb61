	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.type _Z1kPf,@function
; Kernel info:
; NumVgprs: (-9223372036854775807-1)%-1
; NumSgprs: 10
; NumAgprs: 0
; LDSByteSize: 0
	.amdhsa_kernel _Z1kPf
		.amdhsa_group_segment_fixed_size 0
	.end_amdhsa_kernel
