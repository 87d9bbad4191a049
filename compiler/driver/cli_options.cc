#include "compiler/driver/cli_options.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace oc {

const CliOption* CliParser::Find(const std::string& name, bool short_form) const {
  for (const CliOption& o : options_) {
    if ((short_form ? o.short_name : o.name) == name && !name.empty()) return &o;
  }
  return nullptr;
}

absl::Status CliParser::Parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) positional_.push_back(argv[i]);
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      positional_.push_back(arg);
      continue;
    }
    const bool long_form = arg.rfind("--", 0) == 0;
    std::string body = arg.substr(long_form ? 2 : 1);
    std::string value;
    bool has_inline_value = false;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      value = body.substr(eq + 1);
      body = body.substr(0, eq);
      has_inline_value = true;
    }
    const CliOption* opt = Find(body, !long_form);
    if (!opt && !long_form) opt = Find(body, false);  // -name also works
    if (!opt) return absl::InvalidArgumentError(absl::StrCat("unknown option '", arg, "'"));
    if (opt->takes_value) {
      if (!has_inline_value) {
        if (i + 1 >= argc) {
          return absl::InvalidArgumentError(absl::StrCat("option '", arg, "' needs a value"));
        }
        value = argv[++i];
      }
    } else if (has_inline_value) {
      if (value != "true" && value != "false") {
        return absl::InvalidArgumentError(absl::StrCat("option '--", opt->name, "' takes no value"));
      }
      if (value == "false") continue;
    }
    values_[opt->name] = value;
  }
  return absl::OkStatus();
}

std::string CliParser::Get(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second;
  for (const CliOption& o : options_) {
    if (o.name == name) return o.default_value;
  }
  return "";
}

int64_t ParseByteCount(const std::string& text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0 || digits > 12) return -1;  // no overflow even in MiB
  const std::string suffix = text.substr(digits);
  int64_t scale = 1;
  if (suffix == "K" || suffix == "k" || suffix == "KiB") {
    scale = 1024;
  } else if (suffix == "M" || suffix == "MiB") {
    scale = 1024 * 1024;
  } else if (!suffix.empty()) {
    return -1;
  }
  return std::stoll(text.substr(0, digits)) * scale;
}

bool ParseCount(const std::string& text, int64_t* out) {
  if (text.empty() || text.size() > 18) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return absl::SimpleAtoi(text, out);
}

bool ParseDecimal(const std::string& text, double* out) {
  if (text.empty()) return false;
  for (char c : text) {
    if ((c < '0' || c > '9') && c != '.') return false;
  }
  return absl::SimpleAtod(text, out);
}

std::string CliParser::Help(const std::string& usage) const {
  constexpr size_t kIndent = 32, kWidth = 100;
  std::string out = usage + "\n\nOptions:\n";
  for (const CliOption& o : options_) {
    std::string flag = o.short_name.empty() ? "    " : "-" + o.short_name + ", ";
    flag += "--" + o.name + (o.takes_value ? "=" + o.value_name : "");
    std::string text = o.help;
    // --help and --version are actions, not settings: no default to state.
    if (o.name != "help" && o.name != "version") {
      text += " (default: " +
              (!o.default_value.empty()  ? o.default_value
               : !o.default_help.empty() ? o.default_help
               : o.takes_value           ? std::string("none")
                                         : std::string("off")) +
              ")";
    }
    std::string line = "  " + flag;
    line += std::string(line.size() < kIndent ? kIndent - line.size() : 1, ' ');
    // Word-wrap the text, continuation lines aligned with its start.
    size_t pos = 0;
    while (pos < text.size()) {
      size_t room = kWidth - std::min(line.size(), kWidth - 20);
      size_t end = text.size() - pos <= room ? text.size() : text.rfind(' ', pos + room);
      if (end == std::string::npos || end <= pos) end = std::min(text.size(), pos + room);
      line += text.substr(pos, end - pos);
      out += line + "\n";
      pos = end < text.size() && text[end] == ' ' ? end + 1 : end;
      line = std::string(kIndent, ' ');
    }
  }
  return out;
}

}  // namespace oc
