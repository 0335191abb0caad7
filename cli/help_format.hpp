// How `--help` shows an option: a plain placeholder after its name (N, FILE, pinned|hugepages)
// instead of CLI11's type words (TEXT, INT, FLOAT, "INT in [1 - 64]"), and the range and the
// default at the end of its description, where a reader looks for them.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace p2p::cli {

// What CLI11's type name of an option ("INT:INT in [1 - 64]", "TEXT:{pinned,hugepages}",
// "FILE|-") says in plain words.
struct PlainType {
  std::string placeholder;  // "N", "NUM", "FILE", "pinned|hugepages"; "" where CLI11 said TEXT
  std::string range;        // "1 to 64", "> 0"; "" for none
  std::vector<std::string> choices;  // the values an IsMember check accepts
  bool bounded = false;              // a numeric range: [low, high]
  double low = 0;
  double high = 0;
};
PlainType plain_type(const std::string& cli11_type_name);

// The placeholder of an option CLI11 only knows as TEXT: its long name in capitals, as argparse
// does ("--gpus" -> "GPUS", "--nccl-log" -> "NCCL_LOG").
std::string name_placeholder(const std::string& long_name);

// True when the help should say "default: <value>": there is a value, the description does not
// already say what the default is, and the value is one the option accepts (0 for an option
// that takes 1 to 64 is a "not given" marker, not a default to show).
bool default_worth_showing(const std::string& value, const std::string& description,
                           const PlainType& type);

// Help text wrapped to `width` columns. A long option line continues under its description
// column; other lines under their own indent plus two. Example lines ("  p2pcheck ...",
// "  mpirun ...") stay whole, to be copied as they are; a word longer than the width stays whole.
std::string wrap_help(const std::string& text, std::size_t width);

// The width help is wrapped to: COLUMNS where set (40 or more), else the terminal's, else 100.
std::size_t help_width();

// CLI11's help layout with the plain words above, wrapped to help_width(). Set on the root before
// any subcommand is added: subcommands inherit their parent's formatter.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter();
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_option_usage(const CLI::Option* opt) const override;
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;
};

}  // namespace p2p::cli
