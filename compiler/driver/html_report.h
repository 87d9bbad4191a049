// `--html-report FILE.html`: one self-contained page (inline SVG and CSS; no
// scripts, nothing fetched) for people reading a build's memory use: live
// bytes per step of the chosen order against the file order with the lower
// bound, the buffers live at the peak step, and the arena layout (offsets
// against steps).
#ifndef ONNX_TO_C_DRIVER_HTML_REPORT_H_
#define ONNX_TO_C_DRIVER_HTML_REPORT_H_

#include <string>

#include "compiler/driver/compile.h"

namespace oc {

std::string MakeHtmlReport(const CompileOptions& options, const CompileResult& result);

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_HTML_REPORT_H_
