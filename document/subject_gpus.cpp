#include "document/subject_gpus.hpp"

#include <cctype>

#include "document/bench_document.hpp"

namespace p2p::doc {

std::set<std::string> gpus_named(const std::string& text) {
  std::set<std::string> out;
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  for (std::size_t at = text.find("gpu"); at != std::string::npos; at = text.find("gpu", at + 1)) {
    if (at > 0 && word_char(text[at - 1])) continue;
    std::size_t end = at + 3;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at + 3 || (end < text.size() && word_char(text[end]))) continue;
    out.insert(text.substr(at, end - at));
  }
  return out;
}

std::optional<std::pair<std::string, std::string>> gpu_pair_of(const std::string& subject) {
  const auto first = subject.find(' ');
  if (first == std::string::npos) return std::nullopt;
  const auto end = subject.find(' ', first + 1);
  const std::string route =
      subject.substr(first + 1, end == std::string::npos ? end : end - first - 1);
  const bool both_ways = route.find("<->") != std::string::npos;
  const auto arrow = route.find(both_ways ? "<->" : "->");
  if (arrow == std::string::npos) return std::nullopt;
  std::string a = route.substr(0, arrow), b = route.substr(arrow + (both_ways ? 3 : 2));
  if (!is_gpu_endpoint(a) || !is_gpu_endpoint(b) || a == b) return std::nullopt;
  return std::make_pair(a, b);
}

}  // namespace p2p::doc
