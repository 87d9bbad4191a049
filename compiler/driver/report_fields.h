// The JSON report's fields by name (report_fields.def): the writer can only
// write these keys, and verify reads them back by the same names.
#ifndef ONNX_TO_C_DRIVER_REPORT_FIELDS_H_
#define ONNX_TO_C_DRIVER_REPORT_FIELDS_H_

namespace oc {

enum class ReportField {
#define REPORT_FIELD(id, parent, key, type, doc) id,
#include "compiler/driver/report_fields.def"
#undef REPORT_FIELD
};

// The field's JSON key.
inline const char* ReportKey(ReportField field) {
  static constexpr const char* kKeys[] = {
#define REPORT_FIELD(id, parent, key, type, doc) key,
#include "compiler/driver/report_fields.def"
#undef REPORT_FIELD
  };
  return kKeys[static_cast<int>(field)];
}

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_REPORT_FIELDS_H_
