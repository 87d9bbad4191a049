/*
 * onnx-to-c runtime, Armv7E-M: OC_MAC(acc, a, b), acc += a * b (the
 * reference oc_mac.h). On a single-precision FPU, when the generated code
 * asks for it (OC_ARM_VMLA, set for --target=cortex-m4 and cortex-m7), one
 * VMLA.F32 instruction: it rounds the product and then the sum (it is not
 * fused), so the bits are those of the multiply and the add, in half the
 * instructions. GCC never emits it itself at -ffp-contract=off. Other
 * compilers and cores take the C expression.
 */
#ifndef ONNX_TO_C_OC_MAC_H_
#define ONNX_TO_C_OC_MAC_H_

#if defined(OC_ARM_VMLA) && defined(__GNUC__) && defined(__ARM_FP) && (__ARM_FP & 4)
#define OC_MAC(acc, a, b) __asm__("vmla.f32 %0, %1, %2" : "+t"(acc) : "t"(a), "t"(b))
#else
#define OC_MAC(acc, a, b) ((acc) += (a) * (b))
#endif

#endif /* ONNX_TO_C_OC_MAC_H_ */
