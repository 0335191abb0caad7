#include "vm/plan_report.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"

namespace p2p::vm {

namespace {

std::string host_gpus(const HostView& v) {
  std::vector<std::string> all;
  for (std::size_t i = 0; i < v.gpus.size(); ++i)
    all.push_back(v.gpus[i].bdf.empty() ? "GPU" + std::to_string(i) : v.gpus[i].bdf);
  return all.size() > 8 ? join({all.begin(), all.begin() + 8}) + ", ..." : join(all);
}

std::size_t index_of(const HostView& v, const std::string& item) {
  const bool number = !item.empty() && item.find_first_not_of("0123456789") == std::string::npos;
  if (number) {
    const std::size_t i = item.size() > 6 ? v.gpus.size() : std::stoul(item);
    if (i >= v.gpus.size())
      throw InputError("--gpus: GPU " + item + " is not on this host: it has " +
                       std::to_string(v.gpus.size()) + " GPUs (0-" +
                       std::to_string(v.gpus.size() - 1) + ")");
    return i;
  }
  const std::string bdf = normalize_pci_address(item);
  for (std::size_t i = 0; i < v.gpus.size(); ++i)
    if (!bdf.empty() && v.gpus[i].bdf == bdf) return i;
  throw InputError("--gpus: " + item + " is not a GPU of this host (" + host_gpus(v) + ")");
}

}  // namespace

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(trim(item));
  return out;
}

std::vector<std::size_t> select_gpus(const HostView& v, const std::string& spec,
                                     const VmConfig* config) {
  std::vector<std::size_t> out;
  if (spec.empty()) {
    if (config != nullptr)
      for (const auto& d : config->devices)
        for (std::size_t i = 0; i < v.gpus.size(); ++i)
          if (!d.host_bdf.empty() && v.gpus[i].bdf == d.host_bdf &&
              std::find(out.begin(), out.end(), i) == out.end())
            out.push_back(i);
    if (config != nullptr && out.empty())
      throw InputError(config->source + " passes none of this host's GPUs (" + host_gpus(v) +
                       "): name them with --gpus");
    if (config == nullptr)
      for (std::size_t i = 0; i < v.gpus.size(); ++i) out.push_back(i);
    return out;
  }
  for (const auto& item : split_list(spec)) {
    if (item.empty()) throw InputError("--gpus: an empty item in '" + spec + "'");
    const std::size_t i = index_of(v, item);
    if (std::find(out.begin(), out.end(), i) != out.end())
      throw InputError("--gpus: GPU" + std::to_string(i) + " given twice");
    out.push_back(i);
  }
  return out;
}

int PlanReport::exit_code() const {
  return plan.complete() && traps.empty() && plan.provisional().empty() ? 0 : 1;
}

PlanReport make_plan_report(const HostView& v, const std::vector<std::size_t>& selected,
                            int first_clique, std::optional<VmConfig> config,
                            const std::string& vmid) {
  PlanReport r;
  r.topology_source = v.topology.source;
  r.plan = make_clique_plan(v, selected, first_clique);
  r.config = std::move(config);
  if (r.config) r.traps = check_traps(*r.config, &v, &r.plan);
  r.snippets = write_snippets(r.plan, r.config ? &*r.config : nullptr, vmid);
  if (r.config && r.config->has_pending)
    r.plan.notes.push_back(r.config->source +
                           " has a [PENDING] section: changes not yet applied, which the VM gets "
                           "at its next start");
  return r;
}

}  // namespace p2p::vm
