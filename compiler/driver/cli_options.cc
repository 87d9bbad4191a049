#include "compiler/driver/cli_options.h"

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

std::string CliParser::Help(const std::string& usage) const {
  std::string out = usage + "\n\nOptions:\n";
  for (const CliOption& o : options_) {
    std::string flag = o.short_name.empty() ? "    " : "-" + o.short_name + ", ";
    flag += "--" + o.name + (o.takes_value ? "=VALUE" : "");
    out += "  " + flag;
    out += std::string(flag.size() < 30 ? 30 - flag.size() : 1, ' ');
    out += o.help;
    if (o.takes_value && !o.default_value.empty()) out += " (default: " + o.default_value + ")";
    out += "\n";
  }
  return out;
}

}  // namespace oc
