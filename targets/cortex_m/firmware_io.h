/* What the test-bed main needs from the model: written per build by
 * scripts/run-on-qemu.sh (oc_io.c), with the inputs embedded in flash. */
#ifndef ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_
#define ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_

#include <stdint.h>

extern const unsigned oc_num_inputs, oc_num_outputs;
extern const void *const oc_inputs[];       /* embedded input tensors */
extern const uint32_t oc_input_bytes[];     /* bytes the model expects */
extern const uint32_t oc_input_file_bytes[]; /* bytes embedded from each file */
extern void *const oc_outputs[];
extern const uint32_t oc_output_bytes[];
extern const char *const oc_output_paths[]; /* host files (semihosting) */

/* Calls the generated NAME_run. */
int oc_model_run(const void *const inputs[], void *const outputs[]);

#endif /* ONNX_TO_C_CORTEX_M_FIRMWARE_IO_H_ */
