// Every results document kept in results/ is read, judged and written again as this p2pcheck
// writes it (version 4): it must differ from the committed file only in what version 4 adds —
// the version itself, `verdict` (with its caveats), `gpu_selection`, and the `not_meaningful`
// marks on figures that mean nothing on their host. Everything measured comes back unchanged,
// so the typed sections (topology, gate, NCCL) lose nothing a reader had.
#include <gtest/gtest.h>

#include <filesystem>

#include "acceptance/judge.hpp"
#include "common/file_io.hpp"

namespace p2p::accept {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<std::string> kept_documents() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(std::string(P2P_SOURCE_DIR) + "/results")) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    const json j = read_json_file(e.path().string());
    if (j.is_object() && j.value("schema", "") == "p2pcheck.bench.run") out.push_back(e.path());
  }
  return out;
}

// What version 4 adds, taken out of a document so the rest can be compared.
void strip_new_fields(json& j) {
  for (const char* key : {"version", "verdict", "gpu_selection"}) j.erase(key);
  for (const char* list : {"bandwidth", "latency"})
    for (auto& f : j[list]) f.erase("not_meaningful");
  if (j.contains("nccl") && j["nccl"].is_object()) {
    for (const char* run : {"run", "p2p_off"}) {
      if (!j["nccl"][run].is_object()) continue;
      for (auto& r : j["nccl"][run]["results"]) r.erase("not_meaningful");
    }
  }
}

// A kept transport matrix of version 1 (a square of `cells`) as version 2 writes it: the pairs
// NCCL connected, in order. Nothing else of the matrix changed.
void transport_as_version_two(json& t) {
  if (!t.is_object() || !t.contains("cells")) return;
  json pairs = json::array();
  for (std::size_t s = 0; s < t["cells"].size(); ++s) {
    for (std::size_t d = 0; d < t["cells"][s].size(); ++d) {
      const json& c = t["cells"][s][d];
      if (c.at("transports").empty()) continue;
      pairs.push_back({{"src", s},
                       {"dst", d},
                       {"transports", c.at("transports")},
                       {"channels", c.at("channels")}});
    }
  }
  t.erase("cells");
  t["pairs"] = pairs;
  t["version"] = 2;
}

void transports_as_version_two(json& j) {
  if (!j.contains("nccl") || !j["nccl"].is_object()) return;
  for (const char* run : {"run", "p2p_off"})
    if (j["nccl"][run].is_object()) transport_as_version_two(j["nccl"][run]["transport"]);
}

void keep_only_keys_of(const json& model, json& j) {
  if (model.is_object() && j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (!model.contains(it.key())) {
        it = j.erase(it);
        continue;
      }
      keep_only_keys_of(model.at(it.key()), it.value());
      ++it;
    }
  } else if (model.is_array() && j.is_array() && model.size() == j.size()) {
    for (std::size_t i = 0; i < j.size(); ++i) keep_only_keys_of(model[i], j[i]);
  }
}

TEST(Regeneration, KeptDocumentsDifferOnlyInTheVerdictAndTheFieldsVersionFourAdds) {
  const auto docs = kept_documents();
  ASSERT_GE(docs.size(), 10u);
  for (const auto& path : docs) {
    SCOPED_TRACE(path);
    json committed = read_json_file(path);
    doc::BenchDocument d = doc::read_bench_document_file(path);
    mark_not_meaningful(d);
    d.verdict = verdict_of(d, "regeneration");
    json written = d;
    EXPECT_EQ(written.at("version"), 4);
    ASSERT_TRUE(written.at("verdict").is_object());
    EXPECT_FALSE(written.at("verdict").at("checks").empty());
    transports_as_version_two(committed);
    strip_new_fields(committed);
    strip_new_fields(written);
    // Keys an older version did not write at all come back with their defaults (null): those of
    // the committed document are the ones to compare, at every depth.
    keep_only_keys_of(committed, written);
    EXPECT_TRUE(written == committed) << json::diff(committed, written).dump(1).substr(0, 2000);
  }
}

}  // namespace
}  // namespace p2p::accept
