/* Cortex-M4 cycle estimate per Thumb-2 instruction class (m4_cycles.h).
 * Encodings: Arm v7-M Architecture Reference Manual, A5.2 (16-bit) and A5.3
 * (32-bit), A6 (floating point). */
#include "m4_cycles.h"

enum { kRefill = 2, kDivide = 7 };

typedef enum { ALU, LOAD_STORE, OTHER } insn_kind;

int oc_thumb_is_32bit(uint16_t first) {
  const unsigned top5 = first >> 11;
  return top5 == 0x1D || top5 == 0x1E || top5 == 0x1F;
}

static unsigned popcount16(unsigned v) {
  unsigned n = 0;
  for (; v != 0; v &= v - 1) n++;
  return n;
}

/* 16-bit instructions. */
static unsigned cycles16(uint16_t h, insn_kind *kind) {
  *kind = ALU;
  if ((h & 0xF800) == 0x4800 || (h & 0xF000) == 0x5000 || (h & 0xE000) == 0x6000 ||
      (h & 0xF000) == 0x8000 || (h & 0xF000) == 0x9000) {
    *kind = LOAD_STORE; /* LDR literal, register, immediate, halfword, SP-relative */
    return 2;
  }
  if ((h & 0xFE00) == 0xB400) return 1 + popcount16(h & 0x1FF);                  /* PUSH */
  if ((h & 0xFE00) == 0xBC00) return 1 + popcount16(h & 0x1FF) + ((h & 0x100) ? kRefill : 0); /* POP */
  if ((h & 0xF000) == 0xC000) return 1 + popcount16(h & 0xFF);                  /* LDM, STM */
  if ((h & 0xF000) == 0xD000) return (h & 0x0F00) >= 0x0E00 ? 1 : 1 + kRefill;  /* B<cond>, UDF/SVC */
  if ((h & 0xF800) == 0xE000) return 1 + kRefill;                               /* B */
  if ((h & 0xFF00) == 0x4700) return 1 + kRefill;                               /* BX, BLX */
  if ((h & 0xF500) == 0xB100) return 1 + kRefill;                               /* CBZ, CBNZ */
  if ((h & 0xFF87) == 0x4687) return 1 + kRefill;                               /* MOV PC, Rm */
  return 1;
}

/* 32-bit floating-point (coprocessor 10/11) instructions. */
static unsigned cycles_fp(uint16_t h1, uint16_t h2, insn_kind *kind) {
  if ((h1 & 0xFE00) == 0xEC00 || (h1 & 0xFE00) == 0xED00) {
    if ((h1 & 0xFF20) == 0xED00 || (h1 & 0xFF30) == 0xED10) { /* VLDR, VSTR */
      *kind = OTHER;
      return 2;
    }
    if ((h1 & 0xFFE0) == 0xEC40) return 1; /* VMOV two core registers */
    { /* VLDM, VSTM, VPUSH, VPOP: imm8 words */
      unsigned words = h2 & 0xFF;
      return 1 + words;
    }
  }
  if ((h1 & 0xFF00) == 0xEE00 && (h2 & 0x0010) == 0) { /* VFP data processing */
    const unsigned opc1 = (h1 >> 4) & 0xB, opc3 = (h2 >> 6) & 0x3;
    if (opc1 == 0x8) return 14;                                  /* VDIV */
    if (opc1 == 0xB && (h1 & 0x000F) == 0x1 && opc3 == 0x3) return 14; /* VSQRT (VNEG: opc3 01) */
    if (opc1 == 0x0 || opc1 == 0x1 || opc1 == 0xA || opc1 == 0x9) return 3; /* VMLA/VMLS, VNMLA/VNMLS, VFMA/VFMS, VFNMA */
    return 1;
  }
  return 1; /* VMOV core <-> FP, VMRS, VMSR */
}

static unsigned cycles32(uint16_t h1, uint16_t h2, insn_kind *kind) {
  *kind = ALU;
  if ((h1 & 0xFE40) == 0xE800) { /* LDM, STM, PUSH.W, POP.W */
    const unsigned regs = popcount16(h2);
    return 1 + regs + (((h1 & 0x0010) && (h2 & 0x8000)) ? kRefill : 0);
  }
  if ((h1 & 0xFE40) == 0xE840) return 3; /* LDRD, STRD (1 + N), LDREX/STREX, TBB/TBH */
  if ((h1 & 0xFE00) == 0xF800) {         /* LDR/STR single, wide */
    *kind = LOAD_STORE;
    if ((h1 & 0x0010) && ((h2 >> 12) & 0xF) == 0xF && (h1 & 0x0060) == 0x0040) {
      return 2 + kRefill; /* LDR PC */
    }
    return 2;
  }
  if ((h1 & 0xF800) == 0xF000 && (h2 & 0x8000)) return 1 + kRefill; /* B, BL, B<cond>, misc control */
  if ((h1 & 0xFF80) == 0xFB00) return 1;                            /* MUL, MLA, SMLAD and the others */
  if ((h1 & 0xFF80) == 0xFB80) {                                    /* long multiply, divide */
    const unsigned op1 = (h1 >> 4) & 0x7, op2 = (h2 >> 4) & 0xF;
    if ((op1 == 0x1 || op1 == 0x3) && op2 == 0xF) return kDivide; /* SDIV, UDIV */
    return 1;
  }
  if ((h1 & 0xEC00) == 0xEC00 && ((h2 >> 9) & 0x7) == 0x5) return cycles_fp(h1, h2, kind);
  return 1;
}

uint64_t oc_m4_block_cycles(const uint8_t *code, size_t size) {
  uint64_t cycles = 0;
  size_t i = 0;
  int after_load_store = 0;
  while (i + 2 <= size) {
    const uint16_t h1 = (uint16_t)(code[i] | (code[i + 1] << 8));
    insn_kind kind;
    unsigned c;
    if (oc_thumb_is_32bit(h1) && i + 4 <= size) {
      const uint16_t h2 = (uint16_t)(code[i + 2] | (code[i + 3] << 8));
      c = cycles32(h1, h2, &kind);
      i += 4;
    } else {
      c = cycles16(h1, &kind);
      i += 2;
    }
    /* A load or store right after another pipelines its address phase. */
    if (kind == LOAD_STORE && after_load_store && c == 2) c = 1;
    after_load_store = kind == LOAD_STORE;
    cycles += c;
  }
  return cycles;
}
