/* Runs the model on one input tensor and writes its output tensor (raw
 * little-endian float32 files): host_example INPUT.bin OUTPUT.bin */
#include <stdio.h>

#include "mlp.h"

static float input[MLP_INPUT_0_ELEMENTS];
static float output[MLP_OUTPUT_0_ELEMENTS];

int main(int argc, char **argv) {
  const void *inputs[1];
  void *outputs[1];
  FILE *f;
  if (argc != 3) {
    fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (f == NULL || fread(input, 1, sizeof input, f) != sizeof input) {
    fprintf(stderr, "cannot read %u bytes from %s\n", (unsigned)sizeof input, argv[1]);
    return 1;
  }
  fclose(f);
  inputs[0] = input;
  outputs[0] = output;
  if (mlp_run(inputs, outputs) != MLP_OK) {
    fprintf(stderr, "mlp_run failed\n");
    return 1;
  }
  f = fopen(argv[2], "wb");
  if (f == NULL || fwrite(output, 1, sizeof output, f) != sizeof output || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", argv[2]);
    return 1;
  }
  printf("mlp: %u bytes of arena\n", (unsigned)MLP_ARENA_SIZE);
  return 0;
}
