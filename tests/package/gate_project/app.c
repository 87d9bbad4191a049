#include <stdio.h>

#include "gated.h"

int main(void) {
  printf("%u %u %d\n", (unsigned)GATED_ARENA_SIZE, (unsigned)GATED_TOTAL_RAM_SIZE, GATED_IO_IN_ARENA);
  return 0;
}
