/* Arm semihosting calls (BKPT 0xAB on M-profile), enough for a test bed:
 * console text, host files and an exit status that QEMU passes on. */
#ifndef ONNX_TO_C_CORTEX_M_SEMIHOSTING_H_
#define ONNX_TO_C_CORTEX_M_SEMIHOSTING_H_

#include <stddef.h>
#include <stdint.h>

/* Writes a NUL-terminated string to the host console. */
void oc_sh_write0(const char *text);

/* Writes `bytes` bytes to a new host file at `path` (binary, truncating);
 * returns 0 on success. */
int oc_sh_write_file(const char *path, const void *data, size_t bytes);

/* Ends the program: QEMU exits with `status` (SYS_EXIT_EXTENDED). */
void oc_sh_exit(int status) __attribute__((noreturn));

#endif /* ONNX_TO_C_CORTEX_M_SEMIHOSTING_H_ */
