/* The test-bed main: runs the model once on the embedded inputs, writes the
 * outputs to host files and prints the stack the run used.
 *
 * oc_mark_begin/oc_mark_end bracket the run for the instruction-counting
 * QEMU plugin (qemu_plugin/insn_count.c), which watches their addresses. An
 * empty bracket first measures the bracket's own cost, which the plugin's
 * user subtracts. */
#include <stdint.h>
#include <string.h>

#include "firmware_io.h"
#include "semihosting.h"

extern uint32_t __oc_stack_limit[];

__attribute__((noinline)) void oc_mark_begin(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void oc_mark_end(void) { __asm__ volatile("" ::: "memory"); }

#define OC_STACK_PAINT 0xC5AC5AC5u

/* Fills the free stack below the caller's frame with a pattern; returns the
 * address the run's stack grows down from. */
__attribute__((noinline)) static uintptr_t paint_stack(void) {
  volatile uint32_t *p = __oc_stack_limit;
  uintptr_t top = (uintptr_t)__builtin_frame_address(0) - 64u;
  while ((uintptr_t)p < top) *p++ = OC_STACK_PAINT;
  return top;
}

static uint32_t stack_used_below(uintptr_t top) {
  const volatile uint32_t *p = __oc_stack_limit;
  while ((uintptr_t)p < top && *p == OC_STACK_PAINT) ++p;
  return (uint32_t)(top - (uintptr_t)p);
}

static void print_number(const char *label, uint32_t value) {
  char text[48];
  char digits[12];
  size_t n = 0, len = strlen(label);
  memcpy(text, label, len);
  do {
    digits[n++] = (char)('0' + value % 10u);
    value /= 10u;
  } while (value != 0u);
  while (n > 0) text[len++] = digits[--n];
  text[len++] = '\n';
  text[len] = '\0';
  oc_sh_write0(text);
}

int main(void) {
  unsigned i;
  int status;
  uintptr_t stack_top;
  for (i = 0; i < oc_num_inputs; ++i) {
    if (oc_input_file_bytes[i] != oc_input_bytes[i]) {
      print_number("error: wrong input size; the model expects bytes: ", oc_input_bytes[i]);
      return 2;
    }
  }
  oc_model_load_inputs();
  oc_mark_begin();
  oc_mark_end();
  stack_top = paint_stack();
  oc_mark_begin();
  status = oc_model_run();
  oc_mark_end();
  if (status != 0) {
    print_number("error: the model returned status ", (uint32_t)status);
    return 1;
  }
  print_number("stack_bytes=", stack_used_below(stack_top));
  for (i = 0; i < oc_num_outputs; ++i) {
    if (oc_sh_write_file(oc_output_paths[i], oc_output(i), oc_output_bytes[i]) != 0) {
      oc_sh_write0("error: cannot write an output file on the host\n");
      return 1;
    }
  }
  return 0;
}
