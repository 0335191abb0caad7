// Per-GPU PCIe health (link, AER, BAR1), compute mode, and the CUDA/NCCL
// environment variables that change what a run will see.
#include <algorithm>
#include <sstream>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"
#include "doctor/rules/rules.hpp"
#include "doctor/rules/rules_util.hpp"
#include "topology/pcie_link.hpp"

namespace p2p::doctor::rules {

namespace {

std::optional<int> gen_of_gts(const std::optional<double>& gts) {
  return gts ? topo::gen_from_gts(*gts) : std::nullopt;
}

std::string link_text(std::optional<int> gen, std::optional<int> width) {
  return (gen ? "Gen" + std::to_string(*gen) : std::string("Gen?")) + " x" +
         (width ? std::to_string(*width) : "?");
}

Finding check_link(const Facts& f) {
  std::vector<std::string> ev, narrow, slow;
  int known = 0;
  for (const auto& g : gpus(f)) {
    // sysfs first (it is what the slot trained to); NVML where sysfs has nothing (e.g. some VMs).
    std::optional<int> cur_gen, max_gen, cur_w, max_w;
    if (g.pci != nullptr) {
      cur_gen = gen_of_gts(g.pci->current_link_gts);
      max_gen = gen_of_gts(g.pci->max_link_gts);
      cur_w = g.pci->current_link_width;
      max_w = g.pci->max_link_width;
    }
    if (g.nvml != nullptr) {
      if (!cur_gen) cur_gen = g.nvml->pcie_gen_current;
      if (!max_gen) max_gen = g.nvml->pcie_gen_max;
      if (!cur_w) cur_w = g.nvml->pcie_width_current;
      if (!max_w) max_w = g.nvml->pcie_width_max;
    }
    if (!(cur_w && max_w) && !(cur_gen && max_gen)) continue;
    ++known;
    ev.push_back(g.bdf + " " + link_text(cur_gen, cur_w) + " of " + link_text(max_gen, max_w));
    if (cur_w && max_w && *cur_w < *max_w)
      narrow.push_back(g.bdf + " x" + std::to_string(*cur_w) + "/x" + std::to_string(*max_w));
    if (cur_gen && max_gen && *cur_gen < *max_gen)
      slow.push_back(g.bdf + " Gen" + std::to_string(*cur_gen) + "/Gen" + std::to_string(*max_gen));
  }
  if (known == 0)
    return gpus(f).empty() ? finding("pcie.link", Status::kSkip, "no NVIDIA GPU")
                           : finding("pcie.link", Status::kUnknown, "link state unknown", ev);
  if (!narrow.empty())
    return finding(
        "pcie.link", Status::kFail,
        "link narrower than capable on " + join_some(narrow) +
            (slow.empty() ? "" : "; slower: " + join_some(slow)),
        ev,
        "a width below max is a fault at any load: reseat the card, check the riser and BIOS bifurcation");
  if (!slow.empty())
    return finding(
        "pcie.link", Status::kWarn,
        "link speed below max on " + join_some(slow) + " (idle GPUs downtrain to save power)", ev,
        "recheck under load (p2pcheck bench); a speed still below max under load is a real fault");
  return finding("pcie.link", Status::kPass,
                 "all " + std::to_string(known) + " GPU link(s) at max speed and width", ev);
}

Finding check_aer(const Facts& f) {
  std::vector<std::string> ev, fatal, nonfatal, correctable;
  int known = 0;
  for (const auto& g : gpus(f)) {
    if (g.pci == nullptr || !(g.pci->aer_correctable || g.pci->aer_nonfatal || g.pci->aer_fatal))
      continue;
    ++known;
    const auto c = g.pci->aer_correctable.value_or(0), n = g.pci->aer_nonfatal.value_or(0),
               x = g.pci->aer_fatal.value_or(0);
    ev.push_back(g.bdf + " AER correctable " + std::to_string(c) + ", non-fatal " +
                 std::to_string(n) + ", fatal " + std::to_string(x));
    if (x) fatal.push_back(g.bdf);
    if (n) nonfatal.push_back(g.bdf);
    if (c) correctable.push_back(g.bdf);
  }
  if (known == 0)
    return gpus(f).empty()
               ? finding("pcie.aer", Status::kSkip, "no NVIDIA GPU")
               : finding("pcie.aer", Status::kUnknown, "AER counters not available", ev);
  const std::string hint =
      "reseat the card and riser; rising counts under load mean a marginal link";
  if (!fatal.empty())
    return finding("pcie.aer", Status::kFail, "fatal AER errors on " + join_some(fatal), ev, hint);
  if (!nonfatal.empty() || !correctable.empty())
    return finding("pcie.aer", Status::kWarn,
                   "AER errors logged on " + join_some(nonfatal.empty() ? correctable : nonfatal) +
                       (nonfatal.empty() ? " (correctable)" : " (non-fatal)"),
                   ev, hint);
  return finding("pcie.aer", Status::kPass, "no AER errors on " + std::to_string(known) + " GPU(s)",
                 ev);
}

Finding check_bar1(const Facts& f) {
  const SmallBar1 b = small_bar1(f);
  const std::string bios =
      "enable Above 4G Decoding and Resizable BAR in the BIOS (disable CSM), then reboot "
      "(or NVreg_EnableResizableBar=1)";
  if (b.known == 0)
    return gpus(f).empty() ? finding("bar1", Status::kSkip, "no NVIDIA GPU")
                           : finding("bar1", Status::kUnknown, "BAR1 size unknown");
  // Recent GeForce cards do not initialise without the large aperture: not a P2P matter.
  if (!b.init_failed.empty())
    return finding("bar1", Status::kFail,
                   "BAR1 only 256 MiB on " + join_some(b.init_failed) +
                       ", and the driver failed to initialise it (RmInitAdapter)",
                   b.sizes, bios);
  // BAR1 is the window a peer writes through; with a single GPU there is no peer to write.
  if (gpu_use(f).expected == 1 || (gpu_use(f).expected == 0 && gpus(f).size() == 1))
    return finding("bar1", b.fixable.empty() ? Status::kPass : Status::kSkip,
                   b.fixable.empty() ? "BAR1 large enough on 1 GPU(s)"
                                     : "one GPU: a " + bytes_text(kSmallBar1Bytes) +
                                           " BAR1 limits only peer access, and there is no peer",
                   b.sizes);
  if (!b.fixable.empty())
    return finding("bar1", Status::kFail,
                   "BAR1 only 256 MiB on " + join_some(b.fixable) + ": P2P is crippled", b.sizes,
                   bios);
  if (!b.fixed_size.empty())
    return finding("bar1", Status::kWarn,
                   "BAR1 256 MiB on " + join_some(b.fixed_size) +
                       ": the fixed size of this GPU generation (no Resizable BAR before Ampere), "
                       "so peer mappings share 256 MiB",
                   b.sizes);
  return finding("bar1", Status::kPass,
                 "BAR1 large enough on " + std::to_string(b.known) + " GPU(s)", b.sizes);
}

Finding check_compute_mode(const Facts& f) {
  std::vector<std::string> ev, prohibited, exclusive, thread;
  for (const auto& d : f.nvml.devices) {
    if (!d.compute_mode) continue;
    ev.push_back(d.pci_bus_id + " " + compute_mode_name(*d.compute_mode));
    if (*d.compute_mode == 2) prohibited.push_back(d.pci_bus_id);
    if (*d.compute_mode == 1) thread.push_back(d.pci_bus_id);
    if (*d.compute_mode == 3) exclusive.push_back(d.pci_bus_id);
  }
  if (ev.empty())
    return finding("compute_mode", Status::kSkip, "compute mode not known (NVML not run)");
  const std::string hint = "nvidia-smi -c DEFAULT (as root on the host)";
  if (!prohibited.empty())
    return finding(
        "compute_mode", Status::kFail,
        "compute mode PROHIBITED on " + join_some(prohibited) + ": no CUDA context allowed", ev,
        hint);
  // EXCLUSIVE_THREAD (deprecated) lets one thread of one process hold a context: frameworks that
  // create contexts from several threads (TensorFlow's StreamExecutor) cannot work at all.
  if (!thread.empty())
    return finding("compute_mode", Status::kFail,
                   "compute mode EXCLUSIVE_THREAD on " + join_some(thread) +
                       ": one thread of one process may use the GPU (a deprecated mode)",
                   ev, hint);
  if (!exclusive.empty())
    return finding("compute_mode", Status::kWarn,
                   "EXCLUSIVE_PROCESS on " + join_some(exclusive) +
                       ": a second process gets CUDA_ERROR_DEVICE_UNAVAILABLE",
                   ev, hint);
  return finding("compute_mode", Status::kPass, "compute mode Default on all GPUs", ev);
}

Finding check_env(const Facts& f) {
  std::vector<std::string> ev, warn;
  Status st = Status::kPass;
  for (const auto& [k, v] : f.env) ev.push_back(k + "=" + v);
  const auto get = [&](const char* k) -> std::optional<std::string> {
    const auto it = f.env.find(k);
    return it == f.env.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  std::string hint;
  for (const auto& v : visible_devices(f)) {
    const bool cuda_var = v.variable == "CUDA_VISIBLE_DEVICES";
    const std::string here =
        v.gpus_here < 0
            ? std::string("the GPUs here")
            : std::to_string(v.gpus_here) + " GPU(s) here" +
                  (v.gpus_here > 0 ? " (indices 0-" + std::to_string(v.gpus_here - 1) + ")" : "");
    if (v.hides_all) {
      st = Status::kFail;
      warn.push_back(v.variable + "=\"" + v.value + "\" hides every GPU" +
                     (cuda_var ? " (cuInit 100)" : " (the container runtime injects none)"));
      hint =
          cuda_var
              ? "unset CUDA_VISIBLE_DEVICES or list the GPUs (by UUID or index with CUDA_DEVICE_ORDER=PCI_BUS_ID)"
              : "start the container with the GPUs it needs (--gpus, or NVIDIA_VISIBLE_DEVICES=all / their UUIDs)";
      continue;
    }
    if (v.mig.size() >= 2) {
      st = worst(st, Status::kWarn);
      warn.push_back(
          v.variable + " names " + std::to_string(v.mig.size()) +
          " MIG instances: CUDA has no peer-to-peer between MIG instances, so NCCL moves "
          "their data through host shared memory");
      hint =
          "for P2P give each process a whole GPU (MIG off: nvidia-smi -mig 0), or accept the shared-memory path "
          "between instances";
    }
    if (v.missing.empty()) continue;
    // Every entry missing, or CUDA stopped before the first usable one: nothing is visible.
    const bool none_left = v.usable == 0;
    st = worst(st, none_left ? Status::kFail : Status::kWarn);
    std::string text = v.variable + "=" + v.value + " names " + join(v.missing) + ", which " +
                       (v.missing.size() == 1 ? "is" : "are") + " not among " + here;
    if (!v.lost.empty())
      text +=
          "; CUDA stops at the first such entry, so " + join(v.lost) + " after it are ignored too";
    if (none_left && cuda_var) text += ": CUDA sees no device (cuInit 100)";
    warn.push_back(text);
    if (cuda_var)
      hint =
          "set CUDA_VISIBLE_DEVICES to GPUs that exist here (0.." +
          std::to_string(std::max(v.gpus_here - 1, 0)) +
          ", or their UUIDs from nvidia-smi -L), or unset it; inside a container the GPUs are renumbered from 0";
    else
      hint =
          "NVIDIA_VISIBLE_DEVICES names GPUs this container did not get: use the UUIDs from nvidia-smi -L on the host, "
          "or let the device plugin/--gpus choose";
  }
  if (const auto v = get("NCCL_P2P_DISABLE"); v && *v != "0") {
    st = worst(st, Status::kWarn);
    warn.push_back("NCCL_P2P_DISABLE=" + *v + " turns NCCL's P2P transport off");
  }
  if (const auto v = get("NCCL_P2P_LEVEL"); v && (*v == "LOC" || *v == "0"))
    warn.push_back("NCCL_P2P_LEVEL=" + *v + " caps P2P to the same GPU");
  if (const auto v = get("LD_LIBRARY_PATH"); v && v->find("/stubs") != std::string::npos) {
    st = worst(st, Status::kWarn);
    warn.push_back("LD_LIBRARY_PATH contains a stubs directory");
  }
  if (!warn.empty()) return finding("env", st, join(warn, "; "), ev, hint);
  return finding("env", Status::kPass,
                 ev.empty() ? "no CUDA_* / NCCL_* variables set"
                            : std::to_string(ev.size()) + " CUDA/NCCL variable(s), none blocking",
                 ev);
}

}  // namespace

void pcie(const Facts& f, std::vector<Finding>& out) {
  out.push_back(check_link(f));
  out.push_back(check_aer(f));
  out.push_back(check_bar1(f));
  out.push_back(check_compute_mode(f));
  out.push_back(check_env(f));
}

}  // namespace p2p::doctor::rules
