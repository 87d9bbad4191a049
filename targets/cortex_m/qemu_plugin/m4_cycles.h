/* A documented Cortex-M4 cycle estimate per Thumb-2 instruction, for the
 * instruction-counting plugin: QEMU counts instructions exactly but not
 * cycles, so each instruction is priced by its class from the Cortex-M4
 * Technical Reference Manual (Arm DDI 0439B / 100166, Table 3-1 "Processor
 * instruction set summary" and the FPU's Table 7-1), for a system with zero
 * wait states:
 *   data processing, MOV, shifts, saturation, SIMD and packing    1
 *   MUL, MLA, MLS, SMLAD/SMUAD and the other DSP multiplies,
 *   SMULL, UMULL, SMLAL, UMLAL (single-cycle MAC on the M4)       1
 *   SDIV, UDIV (2 to 12, data dependent)                          7
 *   LDR/STR single (2; a load or store right after another one
 *   pipelines its address phase)                                  2, then 1
 *   LDM, STM, PUSH, POP, LDRD, STRD                               1 + N
 *   branches B, BL, BX, BLX, CBZ, CBNZ, and POP/LDM into PC       1 + P, P = 2
 *     (P is 1 to 3; a conditional branch that falls through costs 1: the
 *     estimate prices every branch as taken)
 *   VADD, VSUB, VMUL, VNEG, VABS, VCMP, VCVT, VMOV, VMRS           1
 *   VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS            3
 *   VDIV, VSQRT                                                   14
 *   VLDR, VSTR 2; VLDM, VSTM, VPUSH, VPOP                         1 + N
 * The estimate ignores flash wait states, bus contention and interrupts. */
#ifndef ONNX_TO_C_M4_CYCLES_H_
#define ONNX_TO_C_M4_CYCLES_H_

#include <stddef.h>
#include <stdint.h>

/* Whether the halfword starts a 32-bit Thumb-2 instruction. */
int oc_thumb_is_32bit(uint16_t first);

/* Estimated cycles of the instructions in `code` (little-endian Thumb-2,
 * `size` bytes, whole instructions), as one straight-line block: the
 * load/store pipelining rule applies across neighbours. */
uint64_t oc_m4_block_cycles(const uint8_t *code, size_t size);

#endif /* ONNX_TO_C_M4_CYCLES_H_ */
