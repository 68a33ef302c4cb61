	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.protected	_Z10agpr_heavyPf        ; -- Begin function _Z10agpr_heavyPf
	.globl	_Z10agpr_heavyPf
	.p2align	8
	.type	_Z10agpr_heavyPf,@function
_Z10agpr_heavyPf:                       ; @_Z10agpr_heavyPf
.Lfunc_begin0:
	.file	1 "/tmp/tmp.irT5BgMh01" "probe.hip"
	.loc	1 4 0                           ; probe.hip:4:0
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.0:
	.loc	1 5 3 prologue_end              ; probe.hip:5:3
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	v_lshlrev_b32_e32 v0, 2, v0
	v_mov_b32_e32 v1, 1.0
	;;#ASMSTART
	;;#ASMEND
	.loc	1 6 20                          ; probe.hip:6:20
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
	.loc	1 7 1                           ; probe.hip:7:1
	s_endpgm
.Ltmp0:
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z10agpr_heavyPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 136
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 72
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	_Z10agpr_heavyPf, .Lfunc_end0-_Z10agpr_heavyPf
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 32
; NumSgprs: 6
; NumVgprs: 70
; NumAgprs: 64
; TotalNumVgprs: 136
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 16
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 136
; AccumOffset: 72
; Occupancy: 3
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 17
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	_Z6cappedPf             ; -- Begin function _Z6cappedPf
	.globl	_Z6cappedPf
	.p2align	8
	.type	_Z6cappedPf,@function
_Z6cappedPf:                            ; @_Z6cappedPf
.Lfunc_begin1:
	.loc	1 10 0                          ; probe.hip:10:0
	.cfi_startproc
; %bb.0:
	.file	2 "/usr/include/hip/amd_detail" "amd_hip_runtime.h"
	.loc	2 280 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:280:12
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	v_lshlrev_b32_e32 v0, 2, v0
	v_mov_b32_e32 v1, 2.0
.Ltmp1:
	.loc	1 11 20                         ; probe.hip:11:20
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
	.loc	1 12 1                          ; probe.hip:12:1
	s_endpgm
.Ltmp2:
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z6cappedPf
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	_Z6cappedPf, .Lfunc_end1-_Z6cappedPf
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 32
; NumSgprs: 6
; NumVgprs: 2
; NumAgprs: 0
; TotalNumVgprs: 2
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 2
; AccumOffset: 4
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 0
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	_Z9lds_heavyPf          ; -- Begin function _Z9lds_heavyPf
	.globl	_Z9lds_heavyPf
	.p2align	8
	.type	_Z9lds_heavyPf,@function
_Z9lds_heavyPf:                         ; @_Z9lds_heavyPf
.Lfunc_begin2:
	.loc	1 15 0                          ; probe.hip:15:0
	.cfi_startproc
; %bb.0:
	.loc	1 17 23 prologue_end            ; probe.hip:17:23
	v_cvt_f32_u32_e32 v1, v0
	v_lshlrev_b32_e32 v2, 2, v0
	.loc	1 19 32                         ; probe.hip:19:32
	v_xor_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v0, 2, v0
.Ltmp3:
	.loc	2 280 12                        ; /usr/include/hip/amd_detail/amd_hip_runtime.h:280:12
	s_load_dwordx2 s[0:1], s[4:5], 0x0
.Ltmp4:
	.loc	1 17 21                         ; probe.hip:17:21
	ds_write_b32 v2, v1
.Ltmp5:
	.file	3 "/usr/include/hip/amd_detail" "amd_device_functions.h"
	.loc	3 890 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:890:9
	s_waitcnt lgkmcnt(0)
	.loc	3 891 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:891:9
	s_barrier 
	.loc	3 892 9                         ; /usr/include/hip/amd_detail/amd_device_functions.h:892:9
	s_waitcnt lgkmcnt(0)
.Ltmp6:
	.loc	1 19 22                         ; probe.hip:19:22
	ds_read_b32 v0, v0
	.loc	1 19 20 is_stmt 0               ; probe.hip:19:20
	s_waitcnt lgkmcnt(0)
	global_store_dword v2, v0, s[0:1]
	.loc	1 20 1 is_stmt 1                ; probe.hip:20:1
	s_endpgm
.Ltmp7:
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z9lds_heavyPf
		.amdhsa_group_segment_fixed_size 40960
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 8
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 6
		.amdhsa_accum_offset 4
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	_Z9lds_heavyPf, .Lfunc_end2-_Z9lds_heavyPf
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 72
; NumSgprs: 6
; NumVgprs: 3
; NumAgprs: 0
; TotalNumVgprs: 3
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 40960 bytes/workgroup (compile time only)
; SGPRBlocks: 0
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 6
; NumVGPRsForWavesPerEU: 3
; AccumOffset: 4
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 0
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2align	2                               ; -- Begin function _Z3fibi
	.type	_Z3fibi,@function
_Z3fibi:                                ; @_Z3fibi
.Lfunc_begin3:
	.loc	1 24 0                          ; probe.hip:24:0
	.cfi_startproc
; %bb.0:
	s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
	s_or_saveexec_b64 s[4:5], -1
	buffer_store_dword v40, off, s[0:3], s32 offset:12 ; 4-byte Folded Spill
	s_mov_b64 exec, s[4:5]
	v_writelane_b32 v40, s33, 8
	v_writelane_b32 v40, s30, 0
	v_writelane_b32 v40, s31, 1
	v_writelane_b32 v40, s34, 2
	v_writelane_b32 v40, s35, 3
	v_writelane_b32 v40, s36, 4
	s_mov_b32 s33, s32
	v_writelane_b32 v40, s37, 5
	buffer_store_dword v41, off, s[0:3], s33 offset:8 ; 4-byte Folded Spill
	buffer_store_dword v42, off, s[0:3], s33 offset:4 ; 4-byte Folded Spill
	buffer_store_dword v43, off, s[0:3], s33 ; 4-byte Folded Spill
	v_writelane_b32 v40, s38, 6
	v_mov_b32_e32 v41, v0
	v_writelane_b32 v40, s39, 7
.Ltmp8:
	.loc	1 25 12 prologue_end            ; probe.hip:25:12
	v_cmp_lt_i32_e32 vcc, 1, v41
	v_mov_b32_e32 v42, 0
	s_addk_i32 s32, 0x800
	s_and_saveexec_b64 s[34:35], vcc
	s_cbranch_execz .LBB3_4
; %bb.1:                                ; %tailrecurse.preheader
	.loc	1 0 12 is_stmt 0                ; probe.hip:0:12
	s_mov_b64 s[36:37], 0
	v_mov_b32_e32 v42, 0
	s_getpc_b64 s[38:39]
	s_add_u32 s38, s38, _Z3fibi@rel32@lo+4
	s_addc_u32 s39, s39, _Z3fibi@rel32@hi+12
.LBB3_2:                                ; %tailrecurse
                                        ; =>This Inner Loop Header: Depth=1
	v_mov_b32_e32 v43, v41
	.loc	1 25 22                         ; probe.hip:25:22
	v_add_u32_e32 v0, -1, v43
	.loc	1 25 41                         ; probe.hip:25:41
	v_add_u32_e32 v41, -2, v43
	.loc	1 25 22                         ; probe.hip:25:22
	s_swappc_b64 s[30:31], s[38:39]
	.loc	1 25 12                         ; probe.hip:25:12
	v_cmp_gt_u32_e32 vcc, 4, v43
	s_or_b64 s[36:37], vcc, s[36:37]
	.loc	1 25 33                         ; probe.hip:25:33
	v_add_u32_e32 v42, v0, v42
	s_andn2_b64 exec, exec, s[36:37]
	s_cbranch_execnz .LBB3_2
; %bb.3:                                ; %Flow
	.loc	1 0 33                          ; probe.hip:0:33
	s_or_b64 exec, exec, s[36:37]
.LBB3_4:                                ; %Flow13
	s_or_b64 exec, exec, s[34:35]
	.loc	1 25 33                         ; probe.hip:25:33
	v_add_u32_e32 v0, v41, v42
	.loc	1 25 3                          ; probe.hip:25:3
	buffer_load_dword v43, off, s[0:3], s33 ; 4-byte Folded Reload
	buffer_load_dword v42, off, s[0:3], s33 offset:4 ; 4-byte Folded Reload
	buffer_load_dword v41, off, s[0:3], s33 offset:8 ; 4-byte Folded Reload
	v_readlane_b32 s39, v40, 7
	v_readlane_b32 s38, v40, 6
	v_readlane_b32 s37, v40, 5
	v_readlane_b32 s36, v40, 4
	v_readlane_b32 s35, v40, 3
	v_readlane_b32 s34, v40, 2
	v_readlane_b32 s31, v40, 1
	v_readlane_b32 s30, v40, 0
	s_addk_i32 s32, 0xf800
	v_readlane_b32 s33, v40, 8
	s_or_saveexec_b64 s[4:5], -1
	buffer_load_dword v40, off, s[0:3], s32 offset:12 ; 4-byte Folded Reload
	s_mov_b64 exec, s[4:5]
	s_waitcnt vmcnt(0)
	s_setpc_b64 s[30:31]
.Ltmp9:
.Lfunc_end3:
	.size	_Z3fibi, .Lfunc_end3-_Z3fibi
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Function info:
; codeLenInByte = 352
; NumSgprs: 44
; NumVgprs: 44
; NumAgprs: 0
; TotalNumVgprs: 44
; ScratchSize: 16416
; MemoryBound: 0
	.text
	.protected	_Z9recursivePii         ; -- Begin function _Z9recursivePii
	.globl	_Z9recursivePii
	.p2align	8
	.type	_Z9recursivePii,@function
_Z9recursivePii:                        ; @_Z9recursivePii
.Lfunc_begin4:
	.loc	1 31 0 is_stmt 1                ; probe.hip:31:0
	.cfi_startproc
; %bb.0:
	s_add_u32 flat_scratch_lo, s6, s9
.Ltmp10:
	.loc	2 280 12 prologue_end           ; /usr/include/hip/amd_detail/amd_hip_runtime.h:280:12
	s_load_dword s6, s[4:5], 0x8
	s_load_dwordx2 s[40:41], s[4:5], 0x0
	s_addc_u32 flat_scratch_hi, s7, 0
	s_add_u32 s0, s0, s9
	v_mov_b32_e32 v41, v0
	s_addc_u32 s1, s1, 0
.Ltmp11:
	.loc	1 32 28                         ; probe.hip:32:28
	s_waitcnt lgkmcnt(0)
	v_add_u32_e32 v0, s6, v41
	s_mov_b32 s32, 0
	.loc	1 32 22 is_stmt 0               ; probe.hip:32:22
	s_getpc_b64 s[4:5]
	s_add_u32 s4, s4, _Z3fibi@rel32@lo+4
	s_addc_u32 s5, s5, _Z3fibi@rel32@hi+12
	s_swappc_b64 s[30:31], s[4:5]
	v_lshlrev_b32_e32 v1, 2, v41
	.loc	1 32 20                         ; probe.hip:32:20
	global_store_dword v1, v0, s[40:41]
	.loc	1 33 1 is_stmt 1                ; probe.hip:33:1
	s_endpgm
.Ltmp12:
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z9recursivePii
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 16416
		.amdhsa_kernarg_size 12
		.amdhsa_user_sgpr_count 8
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 44
		.amdhsa_next_free_sgpr 42
		.amdhsa_accum_offset 44
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end4:
	.size	_Z9recursivePii, .Lfunc_end4-_Z9recursivePii
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 88
; NumSgprs: 48
; NumVgprs: 44
; NumAgprs: 0
; TotalNumVgprs: 44
; ScratchSize: 16416
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 5
; VGPRBlocks: 5
; NumSGPRsForWavesPerEU: 48
; NumVGPRsForWavesPerEU: 44
; AccumOffset: 44
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 8
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 10
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	_Z13private_arrayPfi    ; -- Begin function _Z13private_arrayPfi
	.globl	_Z13private_arrayPfi
	.p2align	8
	.type	_Z13private_arrayPfi,@function
_Z13private_arrayPfi:                   ; @_Z13private_arrayPfi
.Lfunc_begin5:
	.loc	1 36 0                          ; probe.hip:36:0
	.cfi_startproc
; %bb.0:
	s_add_u32 s0, s0, s11
.Ltmp13:
	.loc	1 37 3 prologue_end             ; probe.hip:37:3
	s_load_dwordx2 s[8:9], s[6:7], 0x0
	s_load_dword s11, s[6:7], 0x8
	s_load_dword s12, s[4:5], 0x4
	s_load_dword s13, s[4:5], 0xc
	s_addc_u32 s1, s1, 0
	v_lshlrev_b32_e32 v2, 2, v0
	s_waitcnt lgkmcnt(0)
	v_add_co_u32_e32 v4, vcc, s8, v2
	s_and_b32 s4, s12, 0xffff
	s_mul_i32 s10, s10, s4
	s_sub_i32 s5, s13, s10
	.loc	1 0 0 is_stmt 0                 ; probe.hip:0:0
	s_min_u32 s4, s5, s4
	v_mov_b32_e32 v3, s9
	v_addc_co_u32_e32 v5, vcc, 0, v3, vcc
	s_lshl_b32 s5, s4, 2
	v_add_co_u32_e32 v4, vcc, s5, v4
	v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
	.loc	1 38 39 is_stmt 1               ; probe.hip:38:39
	global_load_dword v6, v2, s[8:9]
	global_load_dword v7, v[4:5], off
	v_add_co_u32_e32 v4, vcc, s5, v4
	v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
	v_mov_b32_e32 v1, 0
	.loc	1 38 37 is_stmt 0               ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v6, off, s[0:3], 0 offset:16
	s_waitcnt vmcnt(1)
	buffer_store_dword v7, off, s[0:3], 0 offset:20
	v_add_co_u32_e32 v6, vcc, s5, v4
	v_addc_co_u32_e32 v7, vcc, 0, v5, vcc
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	global_load_dword v9, v[6:7], off
	v_add_co_u32_e32 v4, vcc, s5, v6
	.loc	1 38 58                         ; probe.hip:38:58
	s_add_i32 s5, s4, s4
	s_add_i32 s6, s5, s4
	s_add_i32 s5, s5, s6
	v_addc_co_u32_e32 v5, vcc, 0, v7, vcc
	v_add_u32_e32 v0, s5, v0
	v_lshlrev_b32_e32 v6, 2, v0
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:24
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:28
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v7, v[4:5], off
	global_load_dword v8, v6, s[8:9]
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v8, off, s[0:3], 0 offset:36
	buffer_store_dword v7, off, s[0:3], 0 offset:32
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	global_load_dword v9, v[6:7], off
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:40
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:44
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:48
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:52
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:60
	buffer_store_dword v8, off, s[0:3], 0 offset:56
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:64
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:68
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:72
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:76
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:80
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:84
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(1)
	buffer_store_dword v8, off, s[0:3], 0 offset:88
	s_waitcnt vmcnt(1)
	buffer_store_dword v9, off, s[0:3], 0 offset:92
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:100
	buffer_store_dword v8, off, s[0:3], 0 offset:96
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:108
	buffer_store_dword v8, off, s[0:3], 0 offset:104
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:116
	buffer_store_dword v8, off, s[0:3], 0 offset:112
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:124
	buffer_store_dword v8, off, s[0:3], 0 offset:120
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:132
	buffer_store_dword v8, off, s[0:3], 0 offset:128
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:140
	buffer_store_dword v8, off, s[0:3], 0 offset:136
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:148
	buffer_store_dword v8, off, s[0:3], 0 offset:144
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:156
	buffer_store_dword v8, off, s[0:3], 0 offset:152
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:164
	buffer_store_dword v8, off, s[0:3], 0 offset:160
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:172
	buffer_store_dword v8, off, s[0:3], 0 offset:168
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:180
	buffer_store_dword v8, off, s[0:3], 0 offset:176
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:188
	buffer_store_dword v8, off, s[0:3], 0 offset:184
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:196
	buffer_store_dword v8, off, s[0:3], 0 offset:192
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:204
	buffer_store_dword v8, off, s[0:3], 0 offset:200
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:212
	buffer_store_dword v8, off, s[0:3], 0 offset:208
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:220
	buffer_store_dword v8, off, s[0:3], 0 offset:216
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:228
	buffer_store_dword v8, off, s[0:3], 0 offset:224
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:236
	buffer_store_dword v8, off, s[0:3], 0 offset:232
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:244
	buffer_store_dword v8, off, s[0:3], 0 offset:240
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[6:7], 2, v[0:1]
	v_add_co_u32_e32 v6, vcc, s8, v6
	v_addc_co_u32_e32 v7, vcc, v3, v7, vcc
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:252
	buffer_store_dword v8, off, s[0:3], 0 offset:248
	.loc	1 38 39                         ; probe.hip:38:39
	global_load_dword v8, v[4:5], off
	s_nop 0
	global_load_dword v9, v[6:7], off
	v_lshlrev_b64 v[4:5], 2, v[0:1]
	v_add_co_u32_e32 v4, vcc, s8, v4
	.loc	1 38 58                         ; probe.hip:38:58
	v_add_u32_e32 v0, s4, v0
	v_addc_co_u32_e32 v5, vcc, v3, v5, vcc
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_add_co_u32_e32 v0, vcc, s8, v0
	v_addc_co_u32_e32 v1, vcc, v3, v1, vcc
	.loc	1 39 26 is_stmt 1               ; probe.hip:39:26
	s_and_b32 s4, s11, 63
	s_lshl_b32 s4, s4, 2
	.loc	1 39 39 is_stmt 0               ; probe.hip:39:39
	s_mul_i32 s11, s11, 7
	.loc	1 38 37 is_stmt 1               ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v9, off, s[0:3], 0 offset:260
	buffer_store_dword v8, off, s[0:3], 0 offset:256
	.loc	1 38 39 is_stmt 0               ; probe.hip:38:39
	global_load_dword v3, v[4:5], off
	global_load_dword v6, v[0:1], off
	v_mov_b32_e32 v0, 16
	v_add_u32_e32 v1, s4, v0
	.loc	1 39 44 is_stmt 1               ; probe.hip:39:44
	s_and_b32 s4, s11, 63
	s_lshl_b32 s4, s4, 2
	v_add_u32_e32 v0, s4, v0
	.loc	1 38 37                         ; probe.hip:38:37
	s_waitcnt vmcnt(0)
	buffer_store_dword v6, off, s[0:3], 0 offset:268
	buffer_store_dword v3, off, s[0:3], 0 offset:264
	.loc	1 39 22                         ; probe.hip:39:22
	buffer_load_dword v1, v1, s[0:3], 0 offen
	.loc	1 39 34 is_stmt 0               ; probe.hip:39:34
	s_nop 0
	buffer_load_dword v0, v0, s[0:3], 0 offen
	.loc	1 39 32                         ; probe.hip:39:32
	s_waitcnt vmcnt(0)
	v_add_f32_e32 v0, v1, v0
	.loc	1 39 20                         ; probe.hip:39:20
	global_store_dword v2, v0, s[8:9]
	.loc	1 40 1 is_stmt 1                ; probe.hip:40:1
	s_endpgm
.Ltmp14:
	.section	.rodata,#alloc
	.p2align	6
	.amdhsa_kernel _Z13private_arrayPfi
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 272
		.amdhsa_kernarg_size 12
		.amdhsa_user_sgpr_count 10
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 1
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 10
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 12
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end5:
	.size	_Z13private_arrayPfi, .Lfunc_end5-_Z13private_arrayPfi
	.cfi_endproc
                                        ; -- End function
	.section	.AMDGPU.csdata
; Kernel info:
; codeLenInByte = 2664
; NumSgprs: 16
; NumVgprs: 10
; NumAgprs: 0
; TotalNumVgprs: 10
; ScratchSize: 272
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 16
; NumVGPRsForWavesPerEU: 10
; AccumOffset: 12
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 10
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 2
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.protected	_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE ; @_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE
	.type	_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE,@object
	.section	.rodata._ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE,#alloc
	.weak	_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE
_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE:
	.zero	1
	.size	_ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE, 1

	.protected	_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE ; @_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE
	.type	_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE,@object
	.section	.rodata._ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE,#alloc
	.weak	_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE
_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE:
	.zero	1
	.size	_ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE, 1

	.section	.debug_abbrev
	.byte	1                               ; Abbreviation Code
	.byte	17                              ; DW_TAG_compile_unit
	.byte	1                               ; DW_CHILDREN_yes
	.byte	37                              ; DW_AT_producer
	.byte	14                              ; DW_FORM_strp
	.byte	19                              ; DW_AT_language
	.byte	5                               ; DW_FORM_data2
	.byte	3                               ; DW_AT_name
	.byte	14                              ; DW_FORM_strp
	.byte	16                              ; DW_AT_stmt_list
	.byte	23                              ; DW_FORM_sec_offset
	.byte	27                              ; DW_AT_comp_dir
	.byte	14                              ; DW_FORM_strp
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	2                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	0                               ; DW_CHILDREN_no
	.byte	3                               ; DW_AT_name
	.byte	14                              ; DW_FORM_strp
	.byte	32                              ; DW_AT_inline
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	3                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	3                               ; DW_AT_name
	.byte	14                              ; DW_FORM_strp
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	4                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	1                               ; DW_CHILDREN_yes
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	11                              ; DW_FORM_data1
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	5                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	0                               ; DW_CHILDREN_no
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	5                               ; DW_FORM_data2
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	6                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	1                               ; DW_CHILDREN_yes
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	5                               ; DW_FORM_data2
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	0                               ; EOM(3)
	.section	.debug_info
.Lcu_begin0:
	.long	.Ldebug_info_end0-.Ldebug_info_start0 ; Length of Unit
.Ldebug_info_start0:
	.short	4                               ; DWARF version number
	.long	.debug_abbrev                   ; Offset Into Abbrev. Section
	.byte	8                               ; Address Size (in bytes)
	.byte	1                               ; Abbrev [1] 0xb:0x13e DW_TAG_compile_unit
	.long	.Linfo_string0                  ; DW_AT_producer
	.short	26                              ; DW_AT_language
	.long	.Linfo_string1                  ; DW_AT_name
	.long	.Lline_table_start0             ; DW_AT_stmt_list
	.long	.Linfo_string2                  ; DW_AT_comp_dir
	.quad	.Lfunc_begin0                   ; DW_AT_low_pc
	.long	.Lfunc_end5-.Lfunc_begin0       ; DW_AT_high_pc
	.byte	2                               ; Abbrev [2] 0x2a:0x6 DW_TAG_subprogram
	.long	.Linfo_string3                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	2                               ; Abbrev [2] 0x30:0x6 DW_TAG_subprogram
	.long	.Linfo_string4                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x36:0x3c DW_TAG_subprogram
	.quad	.Lfunc_begin1                   ; DW_AT_low_pc
	.long	.Lfunc_end1-.Lfunc_begin1       ; DW_AT_high_pc
	.long	.Linfo_string8                  ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x47:0x2a DW_TAG_inlined_subroutine
	.long	48                              ; DW_AT_abstract_origin
	.quad	.Lfunc_begin1                   ; DW_AT_low_pc
	.long	.Ltmp1-.Lfunc_begin1            ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	11                              ; DW_AT_call_line
	.byte	7                               ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x5b:0x15 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.quad	.Lfunc_begin1                   ; DW_AT_low_pc
	.long	.Ltmp1-.Lfunc_begin1            ; DW_AT_high_pc
	.byte	2                               ; DW_AT_call_file
	.short	299                             ; DW_AT_call_line
	.byte	77                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	2                               ; Abbrev [2] 0x72:0x6 DW_TAG_subprogram
	.long	.Linfo_string3                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	2                               ; Abbrev [2] 0x78:0x6 DW_TAG_subprogram
	.long	.Linfo_string4                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	2                               ; Abbrev [2] 0x7e:0x6 DW_TAG_subprogram
	.long	.Linfo_string5                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	2                               ; Abbrev [2] 0x84:0x6 DW_TAG_subprogram
	.long	.Linfo_string6                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	2                               ; Abbrev [2] 0x8a:0x6 DW_TAG_subprogram
	.long	.Linfo_string7                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x90:0x7c DW_TAG_subprogram
	.quad	.Lfunc_begin2                   ; DW_AT_low_pc
	.long	.Lfunc_end2-.Lfunc_begin2       ; DW_AT_high_pc
	.long	.Linfo_string9                  ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0xa1:0x2a DW_TAG_inlined_subroutine
	.long	120                             ; DW_AT_abstract_origin
	.quad	.Ltmp3                          ; DW_AT_low_pc
	.long	.Ltmp4-.Ltmp3                   ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	17                              ; DW_AT_call_line
	.byte	23                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0xb5:0x15 DW_TAG_inlined_subroutine
	.long	114                             ; DW_AT_abstract_origin
	.quad	.Ltmp3                          ; DW_AT_low_pc
	.long	.Ltmp4-.Ltmp3                   ; DW_AT_high_pc
	.byte	2                               ; DW_AT_call_file
	.short	299                             ; DW_AT_call_line
	.byte	77                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	4                               ; Abbrev [4] 0xcb:0x40 DW_TAG_inlined_subroutine
	.long	138                             ; DW_AT_abstract_origin
	.quad	.Ltmp5                          ; DW_AT_low_pc
	.long	.Ltmp6-.Ltmp5                   ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	18                              ; DW_AT_call_line
	.byte	3                               ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0xdf:0x2b DW_TAG_inlined_subroutine
	.long	132                             ; DW_AT_abstract_origin
	.quad	.Ltmp5                          ; DW_AT_low_pc
	.long	.Ltmp6-.Ltmp5                   ; DW_AT_high_pc
	.byte	3                               ; DW_AT_call_file
	.short	910                             ; DW_AT_call_line
	.byte	3                               ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0xf4:0x15 DW_TAG_inlined_subroutine
	.long	126                             ; DW_AT_abstract_origin
	.quad	.Ltmp5                          ; DW_AT_low_pc
	.long	.Ltmp6-.Ltmp5                   ; DW_AT_high_pc
	.byte	3                               ; DW_AT_call_file
	.short	902                             ; DW_AT_call_line
	.byte	3                               ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	3                               ; Abbrev [3] 0x10c:0x3c DW_TAG_subprogram
	.quad	.Lfunc_begin4                   ; DW_AT_low_pc
	.long	.Lfunc_end4-.Lfunc_begin4       ; DW_AT_high_pc
	.long	.Linfo_string10                 ; DW_AT_name
	.byte	4                               ; Abbrev [4] 0x11d:0x2a DW_TAG_inlined_subroutine
	.long	120                             ; DW_AT_abstract_origin
	.quad	.Ltmp10                         ; DW_AT_low_pc
	.long	.Ltmp11-.Ltmp10                 ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	32                              ; DW_AT_call_line
	.byte	30                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x131:0x15 DW_TAG_inlined_subroutine
	.long	114                             ; DW_AT_abstract_origin
	.quad	.Ltmp10                         ; DW_AT_low_pc
	.long	.Ltmp11-.Ltmp10                 ; DW_AT_high_pc
	.byte	2                               ; DW_AT_call_file
	.short	299                             ; DW_AT_call_line
	.byte	77                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"Debian clang version 15.0.6"   ; string offset=0
.Linfo_string1:
	.asciz	"probe.hip"                     ; string offset=28
.Linfo_string2:
	.asciz	"/tmp/tmp.irT5BgMh01"           ; string offset=38
.Linfo_string3:
	.asciz	"operator()"                    ; string offset=58
.Linfo_string4:
	.asciz	"operator unsigned int"         ; string offset=69
.Linfo_string5:
	.asciz	"__work_group_barrier"          ; string offset=91
.Linfo_string6:
	.asciz	"__barrier"                     ; string offset=112
.Linfo_string7:
	.asciz	"__syncthreads"                 ; string offset=122
.Linfo_string8:
	.asciz	"capped"                        ; string offset=136
.Linfo_string9:
	.asciz	"lds_heavy"                     ; string offset=143
.Linfo_string10:
	.asciz	"recursive"                     ; string offset=153
	.ident	"Debian clang version 15.0.6"
	.ident	"Debian clang version 15.0.5"
	.section	".note.GNU-stack"
	.addrsig
	.addrsig_sym _ZN17__HIP_CoordinatesI15__HIP_ThreadIdxE1xE
	.addrsig_sym _ZN17__HIP_CoordinatesI14__HIP_BlockDimE1xE
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     64
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed