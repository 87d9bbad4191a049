// Why a value the importer needs at compile time (a loop's trip count or
// condition) is only known at run time: the run-time source at the bottom of
// its cone, for an error that names what is data-dependent.
#ifndef ONNX_TO_C_IMPORT_RUN_TIME_CONE_H_
#define ONNX_TO_C_IMPORT_RUN_TIME_CONE_H_

#include <string>

#include "compiler/ir/program.h"

namespace oc {

// For a value that is not a constant: "graph input 'x', read by node 'n'
// (Op)", or "node 'n' (Op), which is computed at run time although its
// operands are constants" when the cone has no graph input. The first source
// in operand order, so the text is deterministic.
std::string RunTimeSource(const Program& p, ValueId v);

}  // namespace oc

#endif  // ONNX_TO_C_IMPORT_RUN_TIME_CONE_H_
