/* Bare-metal main: classifies one frame after another. On Cortex-M the model's
 * inputs and outputs live inside its arena (--io=arena, the default there), so
 * the arena is all the RAM it takes: each frame is written at cnn_input(0)
 * before the run (a run may reuse the input's bytes) and the scores are read
 * at cnn_output(0) after it. */
#include "cnn.h"

volatile int cnn_class = -1;

/* Stands in for the sensor: a DMA transfer would fill the frame here. */
static void read_frame(float *frame, unsigned count, unsigned time) {
  unsigned i;
  for (i = 0; i < count; ++i) frame[i] = (float)((i * 7u + time) % 13u) / 13.0f;
}

int main(void) {
  unsigned time;
  for (time = 0;; ++time) {
    const float *scores;
    unsigned i, best = 0;
    read_frame((float *)cnn_input(0), CNN_INPUT_0_ELEMENTS, time);
    if (cnn_invoke() != CNN_OK) return 1;
    scores = (const float *)cnn_output(0);
    for (i = 1; i < CNN_OUTPUT_0_ELEMENTS; ++i) {
      if (scores[i] > scores[best]) best = i;
    }
    cnn_class = (int)best;
  }
}
