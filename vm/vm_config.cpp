// Telling the two config formats apart, and the small parsers both use.
#include "vm/vm_config.hpp"

#include <cctype>
#include <cstdio>

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/text.hpp"

namespace p2p::vm {

namespace {

bool hex_digits(const std::string& s, std::size_t n) {
  if (s.size() != n) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The first character that is not white space (after a UTF-8 byte order mark).
char first_significant(const std::string& text) {
  const std::string t = without_bom(text);
  std::size_t i = 0;
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  return i < t.size() ? t[i] : '\0';
}

}  // namespace

std::string normalize_pci_address(const std::string& address, bool* function_given) {
  std::string a = trim(address);
  for (auto& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string domain = "0000", function = "0";
  bool has_function = false;
  const auto dot = a.rfind('.');
  if (dot != std::string::npos) {
    function = a.substr(dot + 1);
    a = a.substr(0, dot);
    has_function = true;
  }
  const auto first = a.find(':');
  if (first == std::string::npos) return "";
  const auto second = a.find(':', first + 1);
  std::string bus = a.substr(0, first), slot = a.substr(first + 1);
  if (second != std::string::npos) {
    domain = a.substr(0, first);
    bus = a.substr(first + 1, second - first - 1);
    slot = a.substr(second + 1);
  }
  if (!hex_digits(domain, 4) || !hex_digits(bus, 2) || !hex_digits(slot, 2) ||
      function.size() != 1 || function[0] < '0' || function[0] > '7')
    return "";
  if (function_given != nullptr) *function_given = has_function;
  return domain + ":" + bus + ":" + slot + "." + function;
}

// Plain string search, not std::regex, whose recursion a long line of a hostile file could
// exhaust.
std::optional<std::pair<std::string, std::string>> clique_set_argument(const std::string& arg) {
  static const std::string kPrefix = "device.", kProperty = ".x-nv-gpudirect-clique=";
  const auto at = arg.find(kProperty);
  if (arg.rfind(kPrefix, 0) != 0 || at == std::string::npos || at <= kPrefix.size())
    return std::nullopt;
  return std::make_pair(arg.substr(kPrefix.size(), at - kPrefix.size()),
                        arg.substr(at + kProperty.size()));
}

std::optional<std::string> clique_device_option(const std::string& options) {
  static const std::string kProperty = "x-nv-gpudirect-clique=";
  const auto at = options.find(kProperty);
  if (at == std::string::npos || (at > 0 && options[at - 1] != ',')) return std::nullopt;
  const auto start = at + kProperty.size();
  return options.substr(start, options.find(',', start) - start);
}

long long config_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used, 0);
    return used == text.size() && v >= 0 ? v : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

namespace {

// Both splits: each word as a program sees it (`value`) and as it is written (`written`).
void split_words(const std::string& args, std::vector<std::string>* value,
                 std::vector<std::string>* written) {
  std::string word, raw;
  bool in_word = false;
  char quote = 0;
  const auto end_word = [&] {
    if (in_word) {
      if (value != nullptr) value->push_back(word);
      if (written != nullptr) written->push_back(raw);
    }
    word.clear();
    raw.clear();
    in_word = false;
  };
  for (char c : args) {
    if (quote == 0 && std::isspace(static_cast<unsigned char>(c))) {
      end_word();
      continue;
    }
    raw += c;
    in_word = true;
    if (quote != 0) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else {
      word += c;
    }
  }
  end_word();
}

}  // namespace

std::vector<std::string> split_args(const std::string& args) {
  std::vector<std::string> out;
  split_words(args, &out, nullptr);
  return out;
}

std::vector<std::string> split_args_as_written(const std::string& args) {
  std::vector<std::string> out;
  split_words(args, nullptr, &out);
  return out;
}

VmConfig parse_vm_config(const std::string& text, const std::string& source) {
  const char first = first_significant(text);
  if (first == '\0')
    throw InputError(source + ": empty: not a Proxmox VM config or libvirt domain XML");
  if (first == '<') return parse_libvirt_config(text, source);
  if (first == '{' || first == '[')
    throw InputError(source +
                     ": JSON, not a Proxmox VM config (/etc/pve/qemu-server/<vmid>.conf) or "
                     "libvirt domain XML (virsh dumpxml)");
  return parse_proxmox_config(text, source);
}

VmConfig read_vm_config_file(const std::string& path) {
  return parse_vm_config(read_text_file(path), path);
}

}  // namespace p2p::vm
