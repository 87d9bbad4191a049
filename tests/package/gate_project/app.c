#include "gated.h"

unsigned gated_arena_bytes(void) { return GATED_ARENA_SIZE; }
