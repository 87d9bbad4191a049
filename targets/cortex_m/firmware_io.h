/* What the test-bed main needs from the model: written per build by
 * scripts/run-on-qemu.sh (oc_io.c), with the inputs embedded in flash. */
#ifndef ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_
#define ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_

#include <stdint.h>

extern const unsigned oc_num_inputs, oc_num_outputs;
extern const void *const oc_inputs[];       /* embedded input tensors */
extern const uint32_t oc_input_bytes[];     /* bytes the model expects */
extern const uint32_t oc_input_file_bytes[]; /* bytes embedded from each file */
extern const uint32_t oc_output_bytes[];
extern const char *const oc_output_paths[]; /* host files (semihosting) */

/* Puts the inputs where the model reads them: into the arena at NAME_input(i)
 * when the model keeps its inputs and outputs there (NAME_IO_IN_ARENA), as a
 * firmware's sensor driver would; nothing for caller buffers. */
void oc_model_load_inputs(void);
/* Runs the model: NAME_invoke(), or NAME_run on the embedded inputs and the
 * test bed's output buffers. */
int oc_model_run(void);
/* Where output i is after the run. */
const void *oc_output(unsigned i);

#endif /* ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_ */
