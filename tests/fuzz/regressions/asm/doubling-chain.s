	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.set s_0, 1
	.set s_1, s_0 + s_0
	.set s_2, s_1 + s_1
	.set s_3, s_2 + s_2
	.set s_4, s_3 + s_3
	.set s_5, s_4 + s_4
	.set s_6, s_5 + s_5
	.set s_7, s_6 + s_6
	.set s_8, s_7 + s_7
	.set s_9, s_8 + s_8
	.set s_10, s_9 + s_9
	.set s_11, s_10 + s_10
	.set s_12, s_11 + s_11
	.set s_13, s_12 + s_12
	.set s_14, s_13 + s_13
	.set s_15, s_14 + s_14
	.set s_16, s_15 + s_15
	.set s_17, s_16 + s_16
	.set s_18, s_17 + s_17
	.set s_19, s_18 + s_18
	.set s_20, s_19 + s_19
	.set s_21, s_20 + s_20
	.set s_22, s_21 + s_21
	.set s_23, s_22 + s_22
	.set s_24, s_23 + s_23
	.set s_25, s_24 + s_24
	.set s_26, s_25 + s_25
	.set s_27, s_26 + s_26
	.set s_28, s_27 + s_27
	.set s_29, s_28 + s_28
	.set s_30, s_29 + s_29
	.set s_31, s_30 + s_30
	.set s_32, s_31 + s_31
	.set s_33, s_32 + s_32
	.set s_34, s_33 + s_33
	.set s_35, s_34 + s_34
	.set s_36, s_35 + s_35
	.set s_37, s_36 + s_36
	.set s_38, s_37 + s_37
	.set s_39, s_38 + s_38
	.set s_40, s_39 + s_39
	.set s_41, s_40 + s_40
	.set s_42, s_41 + s_41
	.set s_43, s_42 + s_42
	.set s_44, s_43 + s_43
	.set s_45, s_44 + s_44
	.set s_46, s_45 + s_45
	.set s_47, s_46 + s_46
	.set s_48, s_47 + s_47
	.set s_49, s_48 + s_48
	.set s_50, s_49 + s_49
	.set s_51, s_50 + s_50
	.set s_52, s_51 + s_51
	.set s_53, s_52 + s_52
	.set s_54, s_53 + s_53
	.set s_55, s_54 + s_54
	.set s_56, s_55 + s_55
	.set s_57, s_56 + s_56
	.set s_58, s_57 + s_57
	.set s_59, s_58 + s_58
	.set s_60, s_59 + s_59
	.set s_61, s_60 + s_60
	.set s_62, s_61 + s_61
	.set s_63, s_62 + s_62
	.type _Z1kPf,@function
; Kernel info:
; NumVgprs: s_63
; NumSgprs: 10
; NumAgprs: 0
; LDSByteSize: 0
	.amdhsa_kernel _Z1kPf
		.amdhsa_group_segment_fixed_size 0
	.end_amdhsa_kernel
