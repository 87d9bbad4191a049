#include "compiler/ir/printer.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace oc {

std::string FormatFloat(float v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  out += "\"";
  return out;
}

std::string FormatShape(const Shape& shape) {
  if (shape.empty()) return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += "x";
    s += std::to_string(shape[i]);
  }
  return s;
}

namespace {

void PrintType(std::ostringstream& os, const Value& v) {
  os << DTypeName(v.dtype) << "[";
  for (size_t i = 0; i < v.shape.size(); ++i) os << (i ? "," : "") << v.shape[i];
  os << "]";
  if (v.quant) {
    os << " quant(" << v.quant->axis << ", [";
    for (size_t i = 0; i < v.quant->scales.size(); ++i) {
      os << (i ? ", " : "") << FormatFloat(v.quant->scales[i]);
    }
    os << "], [";
    for (size_t i = 0; i < v.quant->zero_points.size(); ++i) {
      os << (i ? ", " : "") << v.quant->zero_points[i];
    }
    os << "])";
  }
}

void PrintAttribute(std::ostringstream& os, const Attribute& a) {
  if (auto* i = std::get_if<int64_t>(&a)) {
    os << *i;
  } else if (auto* f = std::get_if<float>(&a)) {
    os << FormatFloat(*f);
  } else if (auto* s = std::get_if<std::string>(&a)) {
    os << QuoteString(*s);
  } else if (auto* iv = std::get_if<std::vector<int64_t>>(&a)) {
    os << "[";
    for (size_t i = 0; i < iv->size(); ++i) os << (i ? ", " : "") << (*iv)[i];
    os << "]";
  } else if (auto* fv = std::get_if<std::vector<float>>(&a)) {
    os << "[";
    for (size_t i = 0; i < fv->size(); ++i) os << (i ? ", " : "") << FormatFloat((*fv)[i]);
    os << "]";
  }
}

}  // namespace

std::string PrintProgram(const Program& program, const PrintOptions& options) {
  std::ostringstream os;
  // Values are numbered in order of definition (inputs, constants, results in
  // program order), so print -> parse -> print is a fixed point.
  std::vector<int64_t> number(program.num_values(), -1);
  int64_t next = 0;
  for (const Value& v : program.values()) {
    if (v.kind == ValueKind::kInput) number[v.id] = next++;
  }
  for (const Value& v : program.values()) {
    if (v.kind == ValueKind::kConstant) number[v.id] = next++;
  }
  for (const Statement& s : program.statements()) {
    for (ValueId r : s.results) number[r] = next++;
  }
  auto ref = [&](ValueId id) {
    return number[id] >= 0 ? "%" + std::to_string(number[id]) : "%<undefined" + std::to_string(id) + ">";
  };
  bool plain_name = !program.name.empty() && !std::isdigit(static_cast<unsigned char>(program.name[0]));
  for (char c : program.name) {
    plain_name = plain_name && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  }
  os << "program @" << (plain_name ? program.name : QuoteString(program.name)) << " {\n";
  // Inputs and constants first, in id order, then statements in program order.
  for (const Value& v : program.values()) {
    if (v.kind == ValueKind::kInput) {
      os << "  " << ref(v.id) << " = input " << QuoteString(v.name) << " : ";
      PrintType(os, v);
      os << "\n";
    }
  }
  for (const Value& v : program.values()) {
    if (v.kind != ValueKind::kConstant) continue;
    os << "  " << ref(v.id) << " = const " << QuoteString(v.name) << " : ";
    PrintType(os, v);
    if (options.max_constant_bytes >= 0 &&
        static_cast<int64_t>(v.data.size()) > options.max_constant_bytes) {
      os << " elided\n";
      continue;
    }
    os << " hex \"";
    static const char kHex[] = "0123456789abcdef";
    for (uint8_t b : v.data) os << kHex[b >> 4] << kHex[b & 15];
    os << "\"\n";
  }
  for (const Statement& s : program.statements()) {
    os << "  ";
    for (size_t i = 0; i < s.results.size(); ++i) {
      const Value& r = program.value(s.results[i]);
      os << (i ? ", " : "") << ref(r.id) << " " << QuoteString(r.name);
    }
    os << " = " << OpName(s.op) << "(";
    for (size_t i = 0; i < s.operands.size(); ++i) {
      os << (i ? ", " : "");
      if (s.operands[i] == kNoValue) {
        os << "_";
      } else {
        os << ref(s.operands[i]);
      }
    }
    os << ")";
    if (!s.attrs.empty()) {
      os << " {";
      bool first = true;
      for (const auto& [key, attr] : s.attrs) {
        os << (first ? "" : ", ") << key << " = ";
        PrintAttribute(os, attr);
        first = false;
      }
      os << "}";
    }
    os << " : ";
    for (size_t i = 0; i < s.results.size(); ++i) {
      if (i) os << ", ";
      PrintType(os, program.value(s.results[i]));
    }
    os << " loc(" << QuoteString(s.node_name) << ", " << QuoteString(s.onnx_op) << ")";
    if (s.macs) os << " macs " << s.macs;
    if (s.scratch_bytes) os << " scratch " << s.scratch_bytes;
    os << "\n";
  }
  if (!program.outputs().empty()) {
    os << "  output ";
    for (size_t i = 0; i < program.outputs().size(); ++i) {
      os << (i ? ", " : "") << ref(program.outputs()[i]);
    }
    os << "\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace oc
