#include "cli/list_items.hpp"

namespace p2p::cli {
namespace {

bool has_empty_item(const std::string& value) {
  if (value.empty()) return false;
  return value.front() == ',' || value.back() == ',' || value.find(",,") != std::string::npos;
}

// The chain of commands the user named: root, then each parsed subcommand below it.
std::vector<const CLI::App*> parsed_chain(const CLI::App& root) {
  std::vector<const CLI::App*> chain{&root};
  while (true) {
    const auto below = chain.back()->get_subcommands([](const CLI::App* s) { return s->parsed(); });
    if (below.empty()) return chain;
    chain.push_back(below.front());
  }
}

const CLI::Option* comma_option_named(const std::vector<const CLI::App*>& chain,
                                      const std::string& name) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const CLI::Option* o = (*it)->get_option_no_throw(name);
    if (o != nullptr) return o->get_delimiter() == ',' ? o : nullptr;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> empty_list_item_in(const CLI::App& root,
                                              const std::vector<std::string>& args) {
  const auto chain = parsed_chain(root);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const CLI::Option* option = comma_option_named(chain, name);
    if (option == nullptr) continue;
    const bool inline_value = eq != std::string::npos;
    if (!inline_value && i + 1 >= args.size()) continue;
    const std::string value = inline_value ? arg.substr(eq + 1) : args[i + 1];
    if (has_empty_item(value)) {
      const std::string command = chain.back() == &root ? "" : chain.back()->get_name() + ": ";
      return command + name + ": an empty item in '" + value + "'";
    }
  }
  return std::nullopt;
}

}  // namespace p2p::cli
