/* Bare-metal main: classifies one frame after another. The input would come
 * from a sensor's DMA buffer; the class goes to the rest of the firmware. */
#include "cnn.h"

static float frame[CNN_INPUT_0_ELEMENTS];
static float scores[CNN_OUTPUT_0_ELEMENTS];
volatile int cnn_class = -1;

int main(void) {
  const void *inputs[1];
  void *outputs[1];
  inputs[0] = frame;
  outputs[0] = scores;
  for (;;) {
    unsigned i, best = 0;
    if (cnn_run(inputs, outputs) != CNN_OK) return 1;
    for (i = 1; i < CNN_OUTPUT_0_ELEMENTS; ++i) {
      if (scores[i] > scores[best]) best = i;
    }
    cnn_class = (int)best;
    frame[best % CNN_INPUT_0_ELEMENTS] += 0.5f; /* stands in for the next frame */
  }
}
