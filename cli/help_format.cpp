#include "cli/help_format.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>

#include "common/text.hpp"

namespace p2p::cli {
namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(part);
  return parts;
}

std::optional<double> number(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// The placeholder CLI11's own type words stand for: a number, or nothing (TEXT: the caller
// names it after the option). Any other word is the command's own (FILE, text|json) and stays.
std::string placeholder_of_type_word(const std::string& word) {
  if (word == "INT" || word == "UINT") return "N";
  if (word == "FLOAT" || word == "NUMBER") return "NUM";
  if (word == "TEXT" || word == "BOOLEAN" || word == "CHAR" || word == "ENUM") return "";
  return word;
}

// One validator's description: a choice list, a range, a path kind, or words to drop.
void read_validator(const std::string& what, bool type_was_generic, PlainType& t) {
  static const std::regex kRange(R"(^\w+ in \[(.+) - (.+)\]$)");
  std::smatch m;
  if (what.size() > 2 && what.front() == '{' && what.back() == '}') {
    t.choices = split(what.substr(1, what.size() - 2), ',');
    std::string joined;
    for (const auto& c : t.choices) joined += (joined.empty() ? "" : "|") + c;
    t.placeholder = joined;
  } else if (std::regex_match(what, m, kRange)) {
    t.range = m[1].str() + " to " + m[2].str();
    const auto low = number(m[1]), high = number(m[2]);
    t.bounded = low && high;
    t.low = low.value_or(0);
    t.high = high.value_or(0);
  } else if (what == "POSITIVE" || what == "NONNEGATIVE") {
    t.range = what == "POSITIVE" ? "> 0" : ">= 0";
    t.bounded = true;
    t.low = what == "POSITIVE" ? std::numeric_limits<double>::min() : 0.0;
    t.high = std::numeric_limits<double>::infinity();
  } else if (type_was_generic && (what == "FILE" || what == "DIR")) {
    t.placeholder = what;
  } else if (type_was_generic && what.rfind("PATH", 0) == 0) {
    t.placeholder = "PATH";
  }
  // Anything else (FINITE, NUMBER) is a check the placeholder already implies.
}

// CLI11 keeps a flag's type size at 1 and expects no value of it.
bool takes_value(const CLI::Option& opt) {
  return opt.get_type_size() > 0 && opt.get_expected_max() > 0;
}

bool accepted(const std::string& value, const PlainType& t) {
  if (!t.choices.empty() && std::find(t.choices.begin(), t.choices.end(), value) == t.choices.end())
    return false;
  if (!t.bounded) return true;
  const auto v = number(value);
  return v && *v >= t.low && *v <= t.high;
}

}  // namespace

PlainType plain_type(const std::string& cli11_type_name) {
  const std::vector<std::string> parts = split(cli11_type_name, ':');
  PlainType t;
  if (parts.empty()) return t;
  t.placeholder = placeholder_of_type_word(parts.front());
  const bool generic = t.placeholder.empty() || t.placeholder != parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) read_validator(parts[i], generic, t);
  return t;
}

std::string name_placeholder(const std::string& long_name) {
  const std::size_t start = long_name.find_first_not_of('-');
  std::string out;
  for (std::size_t i = start; i < long_name.size(); ++i) {
    const auto c = static_cast<unsigned char>(long_name[i]);
    out.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
  }
  return out.empty() ? "VALUE" : out;
}

bool default_worth_showing(const std::string& value, const std::string& description,
                           const PlainType& type) {
  if (value.empty() || value == "[]" || value == "{}") return false;
  if (ascii_lower(description).find("default") != std::string::npos) return false;
  // A list ("[1,2,4,8]"): every element must be one the option accepts.
  const bool list = value.size() > 2 && value.front() == '[' && value.back() == ']';
  const std::vector<std::string> items =
      list ? split(value.substr(1, value.size() - 2), ',') : std::vector<std::string>{value};
  return std::all_of(items.begin(), items.end(),
                     [&type](const std::string& v) { return accepted(v, type); });
}

namespace {

// Where a line's continuation starts: under the description of an option line (the text after
// the first gap of two spaces or more), else two past the line's own indent.
std::size_t continuation_indent(const std::string& line, std::size_t width) {
  const std::size_t indent = line.find_first_not_of(' ');
  const std::size_t gap = line.find("  ", indent);
  if (gap != std::string::npos) {
    const std::size_t desc = line.find_first_not_of(' ', gap);
    if (desc != std::string::npos && desc < width / 2) return desc;
  }
  return std::min(indent + 2, width / 2);
}

bool keep_whole(const std::string& line) {
  return line.rfind("  p2pcheck ", 0) == 0 || line.rfind("  mpirun ", 0) == 0;
}

std::string wrap_line(std::string line, std::size_t width) {
  if (keep_whole(line)) return line;
  const std::size_t indent = continuation_indent(line, width);
  std::string out;
  while (line.size() > width) {
    const std::size_t floor = std::max(indent, line.find_first_not_of(' ')) + 1;
    std::size_t cut = line.rfind(' ', width);
    if (cut == std::string::npos || cut < floor) cut = line.find(' ', width);  // a long word
    if (cut == std::string::npos) break;
    out += line.substr(0, line.find_last_not_of(' ', cut) + 1) + "\n";
    const std::size_t next = line.find_first_not_of(' ', cut);
    if (next == std::string::npos) return out.substr(0, out.size() - 1);
    line = std::string(indent, ' ') + line.substr(next);
  }
  return out + line;
}

}  // namespace

std::string wrap_help(const std::string& text, std::size_t width) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    out += wrap_line(text.substr(start, end - start), width);
    if (end == text.size()) break;
    out += "\n";
    start = end + 1;
  }
  return out;
}

std::size_t help_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(c, &end, 10);
    if (end != c && *end == '\0' && n >= 40 && n <= 1000) return static_cast<std::size_t>(n);
  }
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40)
    return w.ws_col;
  return 100;
}

HelpFormatter::HelpFormatter() { column_width(32); }

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  return wrap_help(CLI::Formatter::make_help(app, std::move(name), mode), help_width());
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
  // A flag takes no value; a positional's name is its placeholder already.
  if (!takes_value(*opt) || !opt->nonpositional()) return "";
  const PlainType t = plain_type(opt->get_type_name());
  const auto& longs = opt->get_lnames();
  std::string out = " " + (t.placeholder.empty()
                               ? name_placeholder(longs.empty() ? opt->get_name() : longs.front())
                               : t.placeholder);
  if (opt->get_expected_max() > 1) out += opt->get_delimiter() == ',' ? ",..." : " ...";
  if (opt->get_required()) out += " (required)";
  return out;
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::string desc = opt->get_description();
  if (!takes_value(*opt)) return desc;
  const PlainType t = plain_type(opt->get_type_name());
  std::vector<std::string> notes;
  if (!t.range.empty()) notes.push_back(t.range);
  std::string value = opt->get_default_str();
  if (default_worth_showing(value, desc, t)) {
    if (value.size() > 1 && value.front() == '[' && value.back() == ']')  // a list: "2,4,8"
      value = value.substr(1, value.size() - 2);
    notes.push_back("default: " + value);
  }
  if (!opt->nonpositional() && opt->get_required()) notes.insert(notes.begin(), "required");
  if (notes.empty()) return desc;
  std::string joined;
  for (const auto& n : notes) joined += (joined.empty() ? "" : "; ") + n;
  return desc + (desc.empty() ? "(" : " (") + joined + ")";
}

std::string HelpFormatter::make_option_usage(const CLI::Option* opt) const {
  // "FILE..." for a list of files, the name alone for a fixed count ("A B"), not CLI11's "(2x)".
  std::string usage = opt->get_name(true, false);
  const bool open_ended = opt->get_expected_max() >= CLI::detail::expected_max_vector_size;
  if (open_ended && usage.size() > 3 && usage.compare(usage.size() - 3, 3, "...") != 0)
    usage += "...";
  return opt->get_required() ? usage : "[" + usage + "]";
}

}  // namespace p2p::cli
