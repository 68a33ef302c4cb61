	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.type _Z1kPf,@function
; Kernel info:
; NumVgprs: 100000000000000000000000
; NumSgprs: 10
; NumAgprs: 0
; LDSByteSize: 0
	.amdhsa_kernel _Z1kPf
		.amdhsa_group_segment_fixed_size 0
	.end_amdhsa_kernel
