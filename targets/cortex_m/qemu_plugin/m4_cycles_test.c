/* The Cortex-M4 cycle estimate on instructions assembled by
 * arm-none-eabi-as (bytes from its objdump), one class each. */
#include <stdio.h>

#include "m4_cycles.h"

static int failures;

static void expect(const char *what, const unsigned char *code, size_t size, unsigned long want) {
  unsigned long got = (unsigned long)oc_m4_block_cycles(code, size);
  if (got != want) {
    printf("FAIL %s: %lu cycles, want %lu\n", what, got, want);
    failures++;
  }
}

#define EXPECT(what, want, ...)                                   \
  do {                                                            \
    static const unsigned char code_[] = {__VA_ARGS__};           \
    expect(what, code_, sizeof code_, want);                      \
  } while (0)

int main(void) {
  EXPECT("nop", 1, 0x00, 0xbf);
  EXPECT("ldr", 2, 0x08, 0x68);
  EXPECT("ldr; str (pipelined)", 3, 0x08, 0x68, 0x08, 0x60);
  EXPECT("push {r4-r7,lr}", 6, 0xf0, 0xb5);
  EXPECT("pop {r4,pc}", 5, 0x10, 0xbd);
  EXPECT("bx lr", 3, 0x70, 0x47);
  EXPECT("muls", 1, 0x48, 0x43);
  EXPECT("smlad", 1, 0x21, 0xfb, 0x02, 0x30);
  EXPECT("sdiv", 7, 0x91, 0xfb, 0xf2, 0xf0);
  EXPECT("umull", 1, 0xa1, 0xfb, 0x02, 0x01);
  EXPECT("vdiv.f32", 14, 0x80, 0xee, 0x81, 0x0a);
  EXPECT("vmla.f32", 3, 0x00, 0xee, 0x81, 0x0a);
  EXPECT("vadd.f32", 1, 0x30, 0xee, 0x81, 0x0a);
  EXPECT("vsqrt.f32", 14, 0xb1, 0xee, 0xe0, 0x0a);
  EXPECT("vneg.f32", 1, 0xb1, 0xee, 0x60, 0x0a);
  EXPECT("vldr", 2, 0x90, 0xed, 0x00, 0x0a);
  EXPECT("vpush {s16-s23}", 9, 0x2d, 0xed, 0x08, 0x8a);
  EXPECT("ldr.w", 2, 0xd1, 0xf8, 0x04, 0x00);
  EXPECT("bl", 3, 0xff, 0xf7, 0xfe, 0xff);
  EXPECT("ldmia.w {r1-r4}", 5, 0x90, 0xe8, 0x1e, 0x00);
  if (failures == 0) printf("m4_cycles: all classes as documented\n");
  return failures == 0 ? 0 : 1;
}
