#include "vm/guest_prospects.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "common/verdict_line.hpp"
#include "topology/classify.hpp"
#include "vm/clique_plan.hpp"
#include "vm/clique_proof.hpp"

namespace p2p::vm {

namespace {

std::string pair_name(std::size_t a, std::size_t b) {
  return "GPU" + std::to_string(a) + "-GPU" + std::to_string(b);
}

std::string clique_of(const topo::TopologySnapshot& t, std::size_t i) {
  if (i >= t.gpudirect.size()) return "";
  const auto& c = t.gpudirect[i];
  return c.clique ? std::to_string(*c.clique) : "-";
}

// "0/0", "0/1", "-/0"; "" where the guest's config space was not read.
std::string cliques_of(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  if (t.gpudirect.empty()) return "";
  return clique_of(t, a) + "/" + clique_of(t, b);
}

bool same_clique(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  return a < t.gpudirect.size() && b < t.gpudirect.size() && t.gpudirect[a].clique &&
         t.gpudirect[a].clique == t.gpudirect[b].clique;
}

std::string status_of(const topo::TopologySnapshot& t, std::size_t a, std::size_t b) {
  return topo::p2p_status_of(t, a, b).value_or("-");
}

}  // namespace

Prospects clique_prospects(const topo::TopologySnapshot& vm, const topo::TopologySnapshot& host) {
  Prospects p;
  // A capture that does not say where it was taken counts as a guest where every pair is PHB, the
  // emulated tree a VFIO guest shows.
  bool all_phb = !vm.gpus.empty();
  for (std::size_t a = 0; a < vm.gpus.size(); ++a)
    for (std::size_t b = a + 1; b < vm.gpus.size(); ++b)
      all_phb = all_phb && topo::matrix_label(vm, a, b) == "PHB";
  const bool guest = vm.environment.kind == "vm" || (vm.environment.kind == "unknown" && all_phb);
  if (!guest || host.environment.kind == "vm") {
    p.note = "not a VM beside its host";
    return p;
  }
  if (vm.gpus.size() != host.gpus.size()) {
    p.note = "the VM has " + std::to_string(vm.gpus.size()) + " GPUs, the host " +
             std::to_string(host.gpus.size()) + ": pairs cannot be put side by side";
    return p;
  }
  const HostView view = make_host_view(host, nullptr, "");
  for (std::size_t a = 0; a < vm.gpus.size(); ++a)
    for (std::size_t b = a + 1; b < vm.gpus.size(); ++b) {
      const PairJudgement j = judge_pair(view, a, b);
      const bool maybe = j.basis == "topology" && j.path == "NODE";
      Prospect x{a,     b,        topo::matrix_label(vm, a, b), j.path, j.p2p,
                 maybe, j.reason, cliques_of(vm, a, b)};
      p.can += x.can ? 1 : 0;
      p.maybe += maybe ? 1 : 0;
      p.pairs.push_back(std::move(x));
    }
  return p;
}

// Pairs with the same classes and reason on one line: 28 pairs of an 8-GPU host stay readable.
std::string format_prospects_text(const Prospects& p) {
  if (p.pairs.empty()) return "";
  std::vector<std::pair<std::string, std::vector<std::string>>> lines;
  for (const auto& x : p.pairs) {
    const std::string verdict = x.can ? "can" : (x.maybe ? "maybe" : "cannot");
    const std::string key = x.vm_path + " -> " + x.host_path + ", " + verdict + ": " + x.why +
                            (x.cliques.empty() ? "" : " [cliques " + x.cliques + "]");
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == key; });
    if (it == lines.end()) it = lines.insert(lines.end(), {key, {}});
    it->second.push_back(pair_name(x.a, x.b));
  }
  std::ostringstream out;
  out << "\nP2P back in the VM with GPUDirect cliques (A a VM, B its host; p2pcheck vm plan on the "
         "host writes the settings): "
      << p.can << " of " << p.pairs.size() << " pairs can, " << p.maybe
      << " only the host's driver can tell\n";
  for (const auto& [key, pairs] : lines) out << "  " << join(pairs, " ") << "\n    " << key << "\n";
  return out.str();
}

nlohmann::json prospects_json(const Prospects& p) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& x : p.pairs)
    pairs.push_back(
        {{"gpus", {x.a, x.b}},
         {"vm", x.vm_path},
         {"host", x.host_path},
         {"can", x.can},
         {"maybe", x.maybe},
         {"why", x.why},
         {"cliques", x.cliques.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.cliques)}});
  return {{"pairs", pairs}, {"can", p.can}, {"maybe", p.maybe}, {"note", p.note}};
}

ThreeWay compare_three(const topo::TopologySnapshot& before, const topo::TopologySnapshot& after,
                       const topo::TopologySnapshot& host) {
  const std::size_t n = host.gpus.size();
  if (before.gpus.size() != n || after.gpus.size() != n)
    throw InputError("vm compare: the three topologies must have as many GPUs (" +
                     std::to_string(before.gpus.size()) + ", " + std::to_string(after.gpus.size()) +
                     ", " + std::to_string(n) + ")");
  ThreeWay t;
  const HostView view = make_host_view(host, nullptr, "");
  t.rows.reserve(n * (n - 1) / 2);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      ThreeWayRow r{a,
                    b,
                    topo::matrix_label(before, a, b),
                    status_of(before, a, b),
                    topo::matrix_label(after, a, b),
                    status_of(after, a, b),
                    cliques_of(after, a, b),
                    topo::matrix_label(host, a, b),
                    status_of(host, a, b),
                    "",
                    "",
                    "",
                    ""};
      const PairJudgement host_says = judge_pair(view, a, b);
      r.host_basis = host_says.basis;
      const bool before_ok = r.before_p2p == "OK", after_ok = r.after_p2p == "OK";
      t.p2p_before += before_ok ? 1 : 0;
      t.p2p_after += after_ok ? 1 : 0;
      t.p2p_host += host_says.p2p ? 1 : 0;
      if (after_ok && !host_says.p2p) {
        r.verdict = "wrong clique";
        r.detail = "the VM claims P2P the host refuses (" + host_says.reason + ")";
        t.wrong = true;
      } else if (after_ok) {
        r.verdict = before_ok ? "P2P before" : "regained";
        r.detail = same_clique(after, a, b) ? "clique " + clique_of(after, a) : "";
      } else if (host_says.p2p) {
        r.verdict = "still lost";
        r.detail = "the host carries it (" + host_says.reason + "): one clique for both";
        t.lost = true;
      } else {
        r.verdict = "no P2P on the host";
        r.detail = host_says.reason;
      }
      t.rows.push_back(std::move(r));
    }
  return t;
}

void add_proof(ThreeWay& t, const topo::TopologySnapshot& after,
               const std::vector<PairProof>& proof, const std::string& source) {
  const auto index = [&](const std::string& bdf) {
    for (std::size_t i = 0; i < after.gpus.size(); ++i)
      if (!bdf.empty() && after.gpus[i].pci_bus_id == bdf) return i;
    throw InputError(source + ": GPU " + bdf +
                     " is not in the VM's topology after cliques (give AFTER as the guest's "
                     "p2pcheck topo --save, which carries bus ids)");
  };
  for (const auto& q : proof) {
    const std::size_t x = index(q.a), y = index(q.b);
    for (auto& r : t.rows) {
      if (r.a != std::min(x, y) || r.b != std::max(x, y)) continue;
      r.proof = q.state;
      if (q.state == "broken") {
        r.verdict = "wrong clique";
        r.detail = "vm verify: data did not arrive (" + q.detail + ")";
      } else if (q.state == "proven" && r.verdict == "wrong clique" && r.host_basis == "topology") {
        // The host's path class was a guess; data arriving in the guest is not.
        r.verdict = "regained";
        r.detail = "proven in the guest; the host's path class alone said no";
      }
    }
  }
  t.wrong = std::any_of(t.rows.begin(), t.rows.end(),
                        [](const ThreeWayRow& r) { return r.verdict == "wrong clique"; });
}

namespace {

// PASS where the VM after has every pair the host carries and no clique the host refuses; else
// FAIL naming the first such pair.
std::string three_way_verdict_line(const ThreeWay& t) {
  const std::string tally = "P2P pairs: VM after " + std::to_string(t.p2p_after) + ", host " +
                            std::to_string(t.p2p_host) + ", of " + std::to_string(t.rows.size());
  if (t.exit_code() == 0) return verdict_line("vm compare", VerdictWord::kPass, tally);
  const std::string worst = t.wrong ? "wrong clique" : "still lost";
  const auto first = std::find_if(t.rows.begin(), t.rows.end(),
                                  [&](const ThreeWayRow& r) { return r.verdict == worst; });
  std::string reason = tally;
  if (first != t.rows.end())
    reason += "; " + pair_name(first->a, first->b) + " " + first->verdict +
              (first->detail.empty() ? "" : ": " + first->detail);
  return verdict_line("vm compare", VerdictWord::kFail, reason);
}

}  // namespace

std::string format_three_way_text(const ThreeWay& t, const std::string& before,
                                  const std::string& after, const std::string& host) {
  std::ostringstream out;
  out << "VM before: " << before << "\nVM after:  " << after << "\nhost:      " << host << "\n\n";
  out << std::left << std::setw(12) << "pair" << std::setw(14) << "VM before" << std::setw(20)
      << "VM after (cliques)" << std::setw(12) << "host"
      << "verdict\n";
  for (const auto& r : t.rows) {
    out << std::setw(12) << pair_name(r.a, r.b) << std::setw(14)
        << (r.before_path + " " + r.before_p2p) << std::setw(20)
        << (r.after_path + " " + r.after_p2p +
            (r.after_cliques.empty() ? "" : " " + r.after_cliques))
        << std::setw(12) << (r.host_path + " " + r.host_p2p) << r.verdict
        << (r.detail.empty() ? "" : ": " + r.detail)
        << (r.proof.empty() || r.proof == "broken" ? "" : " (vm verify: " + r.proof + ")") << "\n";
  }
  out << "\nP2P pairs: VM before " << t.p2p_before << ", VM after " << t.p2p_after << ", host "
      << t.p2p_host << " of " << t.rows.size() << "\n";
  if (t.wrong)
    out << "A clique claims P2P the host refuses: take a GPU out (p2pcheck vm plan on the host)\n";
  if (t.lost) out << "Pairs the host carries are still without P2P in the VM\n";
  out << three_way_verdict_line(t);
  return out.str();
}

nlohmann::json three_way_row_json(const ThreeWayRow& r) {
  return {{"gpus", {r.a, r.b}},
          {"before", {{"path", r.before_path}, {"p2p", r.before_p2p}}},
          {"after", {{"path", r.after_path}, {"p2p", r.after_p2p}, {"cliques", r.after_cliques}}},
          {"host", {{"path", r.host_path}, {"p2p", r.host_p2p}}},
          {"verdict", r.verdict},
          {"detail", r.detail},
          {"proof", r.proof.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.proof)}};
}

nlohmann::json three_way_json_head(const ThreeWay& t) {
  return {{"schema", "p2pcheck.vm_compare"},
          {"schema_version", 1},
          {"p2p_before", t.p2p_before},
          {"p2p_after", t.p2p_after},
          {"p2p_host", t.p2p_host},
          {"wrong_clique", t.wrong},
          {"still_lost", t.lost},
          {"exit_code", t.exit_code()}};
}

}  // namespace p2p::vm
