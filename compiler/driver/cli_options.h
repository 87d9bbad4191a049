// A small table-driven command-line parser for the tools: every option is
// declared once with its default and help, `--help` lists them all, and bad
// usage is reported (exit code 2) instead of aborting.
#ifndef ONNX_TO_C_DRIVER_CLI_OPTIONS_H_
#define ONNX_TO_C_DRIVER_CLI_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace oc {

struct CliOption {
  std::string name;        // long name without dashes, e.g. "emit-harness"
  std::string short_name;  // e.g. "o", or empty
  bool takes_value;
  std::string default_value;
  std::string help;
  // How --help states the default when `default_value` is empty, e.g. "the
  // model file's stem"; otherwise "none" for options with a value, "off" for
  // flags.
  std::string default_help = "";
  std::string value_name = "VALUE";  // shown as --name=VALUE
};

// "65536", "64K" (KiB) or "2M" (MiB) as bytes; -1 when not a byte count.
int64_t ParseByteCount(const std::string& text);

// Strict numbers: the whole text is one decimal number (no sign for
// ParseCount, no trailing characters, no overflow). False otherwise.
bool ParseCount(const std::string& text, int64_t* out);
bool ParseDecimal(const std::string& text, double* out);

class CliParser {
 public:
  explicit CliParser(std::vector<CliOption> options) : options_(std::move(options)) {}

  // Parses argv[1..]; positional arguments are collected in order.
  absl::Status Parse(int argc, char** argv);

  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  // The given value or the declared default.
  std::string Get(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  std::string Help(const std::string& usage) const;

 private:
  const CliOption* Find(const std::string& name, bool short_form) const;
  std::vector<CliOption> options_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace oc

#endif  // ONNX_TO_C_DRIVER_CLI_OPTIONS_H_
