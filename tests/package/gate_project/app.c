#include <stdio.h>

#include "gated.h"

int main(void) {
  printf("%u\n", (unsigned)GATED_ARENA_SIZE);
  return 0;
}
