#include "document/endpoint.hpp"

#include <cctype>
#include <tuple>

namespace p2p::doc {

std::string Endpoint::label() const {
  switch (kind) {
    case Kind::kHost: return "host";
    case Kind::kAll: return "all";
    case Kind::kGpu: break;
  }
  return "gpu" + std::to_string(gpu);
}

std::uint32_t Endpoint::code() const {
  switch (kind) {
    case Kind::kHost: return 0xFFFFu;
    case Kind::kAll: return 0xFFFEu;
    case Kind::kGpu: break;
  }
  return static_cast<std::uint32_t>(gpu);
}

bool operator==(const Endpoint& a, const Endpoint& b) { return a.kind == b.kind && a.gpu == b.gpu; }
bool operator!=(const Endpoint& a, const Endpoint& b) { return !(a == b); }

bool operator<(const Endpoint& a, const Endpoint& b) {
  auto rank = [](const Endpoint& e) {
    return e.kind == Endpoint::Kind::kHost ? 0 : e.kind == Endpoint::Kind::kGpu ? 1 : 2;
  };
  return std::make_tuple(rank(a), a.gpu) < std::make_tuple(rank(b), b.gpu);
}

std::optional<Endpoint> endpoint_from_label(const std::string& label) {
  if (label == "host") return Endpoint::host();
  if (label == "all") return Endpoint::all();
  if (label.size() > 3 && label.compare(0, 3, "gpu") == 0 && label.size() <= 8) {
    int n = 0;
    for (std::size_t i = 3; i < label.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(label[i]))) return std::nullopt;
      n = n * 10 + (label[i] - '0');
    }
    return Endpoint::on_gpu(n);
  }
  return std::nullopt;
}

}  // namespace p2p::doc
