/* Pass/fail bookkeeping shared by the runtime's C test programs. */
#ifndef ONNX_TO_C_RUNTIME_TESTS_TEST_CHECK_H_
#define ONNX_TO_C_RUNTIME_TESTS_TEST_CHECK_H_

#include <stdio.h>

static int g_pass, g_fail;

static void check(int ok, const char *what) {
  if (ok) {
    g_pass++;
  } else {
    g_fail++;
    printf("FAIL: %s\n", what);
  }
}

#endif /* ONNX_TO_C_RUNTIME_TESTS_TEST_CHECK_H_ */
