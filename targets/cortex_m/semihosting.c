/* Semihosting operation numbers and parameter blocks follow Arm's
 * "Semihosting for AArch32 and AArch64" specification (version 2.0). */
#include "semihosting.h"

#include <string.h>

enum {
  SYS_OPEN = 0x01,
  SYS_CLOSE = 0x02,
  SYS_WRITE0 = 0x04,
  SYS_WRITE = 0x05,
  SYS_EXIT = 0x18,
  SYS_EXIT_EXTENDED = 0x20
};

/* Reason code of SYS_EXIT for a normal application exit. */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
/* SYS_OPEN mode 5 is fopen's "wb". */
#define OPEN_MODE_WB 5u

static int32_t call(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return (int32_t)r0;
}

void oc_sh_write0(const char *text) { (void)call(SYS_WRITE0, text); }

int oc_sh_write_file(const char *path, const void *data, size_t bytes) {
  uint32_t open_args[3];
  uint32_t io_args[3];
  int32_t handle;
  int32_t not_written;
  open_args[0] = (uint32_t)(uintptr_t)path;
  open_args[1] = OPEN_MODE_WB;
  open_args[2] = (uint32_t)strlen(path);
  handle = call(SYS_OPEN, open_args);
  if (handle < 0) return 1;
  io_args[0] = (uint32_t)handle;
  io_args[1] = (uint32_t)(uintptr_t)data;
  io_args[2] = (uint32_t)bytes;
  not_written = call(SYS_WRITE, io_args); /* returns the bytes NOT written */
  io_args[1] = 0u;
  io_args[2] = 0u;
  if (call(SYS_CLOSE, io_args) != 0) return 1;
  return not_written == 0 ? 0 : 1;
}

void oc_sh_exit(int status) {
  uint32_t args[2];
  args[0] = ADP_STOPPED_APPLICATION_EXIT;
  args[1] = (uint32_t)status;
  (void)call(SYS_EXIT_EXTENDED, args);
  /* A host without SYS_EXIT_EXTENDED: plain SYS_EXIT (status 0 or 1). */
  (void)call(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ? ADP_STOPPED_APPLICATION_EXIT : 0u));
  for (;;) {
  }
}
