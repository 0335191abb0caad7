#include "vm/clique_proof.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/strict_json.hpp"
#include "common/text.hpp"
#include "common/verdict_line.hpp"
#include "doctor/vfio_guest.hpp"

namespace p2p::vm {

namespace {

PairProof proof_of(const doctor::CliquePair& p, const doctor::Facts& f) {
  PairProof out{p.clique, p.a, p.b, "unproven", ""};
  switch (p.copy) {
    case doctor::PairCopy::kVerified: out.state = "proven"; break;
    case doctor::PairCopy::kFailed:
      out.state = "broken";
      out.detail = join(p.failures, "; ");
      break;
    default:
      out.detail = f.peer_copy.status == doctor::ProbeStatus::kCompleted
                       ? "the peer copy did not write both directions"
                       : "no peer copy: " + (f.peer_copy.detail.empty()
                                                 ? std::string(to_string(f.peer_copy.status))
                                                 : f.peer_copy.detail);
  }
  if (p.driver_p2p == false)
    out.detail += std::string(out.detail.empty() ? "" : "; ") +
                  "the guest driver refuses P2P: " + p.driver_reason;
  return out;
}

}  // namespace

int CliqueProof::exit_code() const {
  const bool all_proven = std::all_of(pairs.begin(), pairs.end(),
                                      [](const PairProof& p) { return p.state == "proven"; });
  return !pairs.empty() && all_proven ? 0 : 1;
}

CliqueProof prove_cliques(const doctor::Facts& guest, const std::string& source) {
  const doctor::GuestCliques g = doctor::guest_cliques(guest);
  CliqueProof p;
  p.source = source;
  p.cliques = g.cliques;
  p.without = g.without;
  p.unread = g.unknown;
  std::vector<doctor::CliquePair> failed;
  for (const auto& pair : g.pairs) {
    p.pairs.push_back(proof_of(pair, guest));
    if (pair.copy == doctor::PairCopy::kFailed) failed.push_back(pair);
  }
  std::map<int, std::vector<doctor::CliquePair>> failed_by_clique;
  for (const auto& f : failed) failed_by_clique[f.clique].push_back(f);
  for (const auto& [id, pairs] : failed_by_clique)
    for (const auto& gpu : doctor::gpus_to_take_out(pairs)) p.take_out.push_back(gpu);
  return p;
}

std::string format_proof_text(const CliqueProof& p) {
  std::ostringstream out;
  out << "p2pcheck vm verify (" << p.source << ")\n";
  if (p.cliques.empty())
    out << "No GPU carries a GPUDirect clique: nothing to prove (p2pcheck vm plan on the host "
           "writes them)\n";
  for (const auto& [id, members] : p.cliques) {
    out << "clique " << id << "  " << join(members) << "\n";
    for (const auto& q : p.pairs) {
      if (q.clique != id) continue;
      const char* mark = q.state == "proven" ? "✔" : q.state == "broken" ? "✘" : "?";
      out << "  " << mark << " " << q.a << " <-> " << q.b << "  " << q.state
          << (q.detail.empty() ? "" : ": " + q.detail) << "\n";
    }
  }
  if (!p.without.empty()) out << "without a clique: " << join(p.without) << "\n";
  if (!p.unread.empty()) out << "capability not read (run as root): " << join(p.unread) << "\n";
  const auto count = [&](const char* s) {
    return std::count_if(p.pairs.begin(), p.pairs.end(),
                         [&](const PairProof& q) { return q.state == s; });
  };
  out << "\n"
      << count("proven") << " of " << p.pairs.size() << " clique pair(s) proven, "
      << count("broken") << " broken, " << count("unproven") << " unproven\n";
  if (!p.take_out.empty())
    out << "Broken: take " << join(p.take_out)
        << " out of its clique on the host (p2pcheck vm plan with the host's facts says where it "
           "belongs)\n";
  else if (count("unproven") != 0)
    out << "Unproven: run p2pcheck vm verify in the guest as root, with every GPU of the "
           "cliques visible\n";
  const std::string tally = std::to_string(count("proven")) + " of " +
                            std::to_string(p.pairs.size()) + " clique pair(s) proven";
  if (p.exit_code() == 0) {
    out << verdict_line("vm verify", VerdictWord::kPass, tally);
  } else if (p.pairs.empty()) {
    out << verdict_line("vm verify", VerdictWord::kFail, "no clique pair to prove");
  } else {
    const auto first = std::find_if(p.pairs.begin(), p.pairs.end(),
                                    [](const PairProof& q) { return q.state != "proven"; });
    out << verdict_line("vm verify", VerdictWord::kFail,
                        tally + "; " + first->a + " <-> " + first->b + " " + first->state +
                            (first->detail.empty() ? "" : ": " + first->detail));
  }
  return out.str();
}

std::vector<PairProof> proof_pairs_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != "p2pcheck.vm_verify")
    throw InputError(source + ": not a p2pcheck vm verify document (schema p2pcheck.vm_verify)");
  // The project's strict reader: every key of a pair there, none other, each error naming its path.
  const auto pair = [](const nlohmann::json& q, const std::string& where) {
    StrictReader in(q, where);
    PairProof p;
    in.get("clique", p.clique);
    const auto gpus = in.get<std::vector<std::string>>("gpus");
    if (gpus.size() != 2)
      throw InputError(in.path("gpus") + ": two bus ids, not " + std::to_string(gpus.size()));
    p.a = gpus[0];
    p.b = gpus[1];
    in.get("state", p.state);
    in.get("detail", p.detail);
    if (p.state != "proven" && p.state != "broken" && p.state != "unproven")
      throw InputError(in.path("state") + ": '" + p.state + "' is not proven, broken or unproven");
    in.finish();
    return p;
  };
  try {
    StrictReader in(j, "");
    return strict_list<PairProof>(in.at("pairs"), in.path("pairs"), pair);
  } catch (const InputError& e) {
    throw InputError(source + ": " + e.what());
  }
}

nlohmann::json proof_json(const CliqueProof& p) {
  nlohmann::json pairs = nlohmann::json::array(), cliques = nlohmann::json::array();
  for (const auto& [id, members] : p.cliques) cliques.push_back({{"id", id}, {"gpus", members}});
  for (const auto& q : p.pairs)
    pairs.push_back(
        {{"clique", q.clique}, {"gpus", {q.a, q.b}}, {"state", q.state}, {"detail", q.detail}});
  return {{"schema", "p2pcheck.vm_verify"},
          {"schema_version", CliqueProof::kSchemaVersion},
          {"source", p.source},
          {"cliques", cliques},
          {"pairs", pairs},
          {"without_clique", p.without},
          {"capability_unread", p.unread},
          {"take_out", p.take_out},
          {"exit_code", p.exit_code()}};
}

}  // namespace p2p::vm
