/* Reset and fault handling for the Cortex-M test bed: the vector table,
 * .data/.bss/arena initialisation, the FPU on M4F/M7, then main(). */
#include <stdint.h>
#include <string.h>

#include "semihosting.h"

int main(void);

/* Defined by the linker script (firmware_sections.ld). */
extern uint32_t __oc_stack_top[];
extern uint8_t __oc_data_start[], __oc_data_end[], __oc_data_load[];
extern uint8_t __oc_bss_start[], __oc_bss_end[];
extern uint8_t __oc_arena_start[], __oc_arena_end[];

void oc_reset_handler(void);
void oc_fault_handler(void);

/* Armv6-M/Armv7-M exception vectors 1..15 after the initial stack pointer. */
struct oc_vector_table {
  uint32_t *initial_sp;
  void (*handlers[15])(void);
};

__attribute__((section(".vectors"), used)) static const struct oc_vector_table vectors = {
    __oc_stack_top,
    {oc_reset_handler, oc_fault_handler, oc_fault_handler, oc_fault_handler, oc_fault_handler,
     oc_fault_handler, 0, 0, 0, 0, oc_fault_handler, oc_fault_handler, 0, oc_fault_handler,
     oc_fault_handler}};

/* Coprocessor Access Control Register; CP10 and CP11 are the FPU. */
#define OC_SCB_CPACR (*(volatile uint32_t *)0xE000ED88u)

void oc_reset_handler(void) {
#if defined(__ARM_FP)
  /* Full access to CP10/CP11 before any floating-point instruction. */
  OC_SCB_CPACR |= 0xFu << 20;
  __asm__ volatile("dsb\n\tisb" ::: "memory");
#endif
  memcpy(__oc_data_start, __oc_data_load, (size_t)(__oc_data_end - __oc_data_start));
  memset(__oc_bss_start, 0, (size_t)(__oc_bss_end - __oc_bss_start));
  memset(__oc_arena_start, 0, (size_t)(__oc_arena_end - __oc_arena_start));
  oc_sh_exit(main());
}

void oc_fault_handler(void) {
  oc_sh_write0("error: CPU fault (HardFault or another exception)\n");
  oc_sh_exit(3);
}
