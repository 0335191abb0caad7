// Where each named value of the documented tables lives in the facts.
#include "doctor/fact_view.hpp"

#include <cctype>
#include <regex>

#include "doctor/derived.hpp"
#include "doctor/knowledge/codes.hpp"

namespace p2p::doctor {

namespace {

void put(FactView& v, const std::string& name, std::string value, std::string gpu = "") {
  v[name].push_back(FactValue{std::move(value), std::move(gpu)});
}

void put_known(FactView& v, const std::string& name) { v[name]; }

const char* yes_no(bool b) { return b ? "yes" : "no"; }

void probe_values(const Facts& f, FactView& v) {
  put(v, "cuda.probe", to_string(f.cuda.status));
  put(v, "nvml.probe", to_string(f.nvml.status));
  if (f.cuda.library_path) put(v, "cuda.library", *f.cuda.library_path);
  if (f.cuda.status == ProbeStatus::kCompleted && f.cuda.init_result) {
    put_known(v, "cuda.init");
    if (*f.cuda.init_result != 0) put(v, "cuda.init", cu_result_name(*f.cuda.init_result));
    put_known(v, "cuda.context");
    put_known(v, "cuda.alloc");
    for (const auto& d : f.cuda.devices) {
      const std::string bdf = normalize_bdf(d.pci_bus_id);
      if (d.context_result && *d.context_result != 0)
        put(v, "cuda.context", cu_result_name(*d.context_result), bdf);
      if (d.alloc_result && *d.alloc_result != 0)
        put(v, "cuda.alloc", cu_result_name(*d.alloc_result), bdf);
    }
  }
  if (f.nvml.status == ProbeStatus::kCompleted && f.nvml.init_result) {
    put_known(v, "nvml.init");
    if (*f.nvml.init_result != 0) put(v, "nvml.init", nvml_return_name(*f.nvml.init_result));
  }
}

// The peer-copy check names a failed driver call in its detail ("cuCtxEnablePeerAccess = 217
// CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"): the documented code, not "data did not arrive".
void peer_values(const Facts& f, FactView& v) {
  if (f.peer_copy.status == ProbeStatus::kNotRun) return;
  put_known(v, "cuda.peer");
  static const std::regex kCode("CUDA_ERROR_[A-Z_]+");
  auto codes_in = [&](const std::string& text, const std::string& gpu) {
    for (std::sregex_iterator it(text.begin(), text.end(), kCode), end; it != end; ++it)
      put(v, "cuda.peer", it->str(), gpu);
  };
  codes_in(f.peer_copy.detail, "");
  for (const auto& p : f.peer_copy.pairs)
    if (p.either_write_is(CopyResult::kError)) codes_in(p.detail, normalize_bdf(p.src_bus_id));
}

void gpu_values(const Facts& f, FactView& v) {
  if (f.nvml.status != ProbeStatus::kCompleted) return;
  for (const char* name : {"gpu.compute_mode", "gpu.virtualization", "gpu.mig", "gpu.vgpu_licensed",
                           "gpu.processes", "nvml.query_errors", "gpu.name"})
    put_known(v, name);
  for (const auto& d : f.nvml.devices) {
    const std::string& bdf = d.pci_bus_id;
    put(v, "gpu.name", d.name, bdf);
    if (d.compute_mode) put(v, "gpu.compute_mode", compute_mode_name(*d.compute_mode), bdf);
    if (d.virtualization_mode)
      put(v, "gpu.virtualization", virtualization_mode_name(*d.virtualization_mode), bdf);
    if (!d.health) continue;
    const NvmlHealth& h = *d.health;
    for (const auto& [call, code] : h.query_errors)
      put(v, "nvml.query_errors", nvml_return_name(code), bdf);
    if (h.mig_mode_current) put(v, "gpu.mig", *h.mig_mode_current ? "on" : "off", bdf);
    if (h.vgpu_licensed) put(v, "gpu.vgpu_licensed", yes_no(*h.vgpu_licensed), bdf);
    if (h.processes)
      for (const auto& p : *h.processes)
        put(v, "gpu.processes", p.name.value_or("pid " + std::to_string(p.pid)), bdf);
  }
}

void host_values(const Facts& f, FactView& v) {
  if (const Tri t = nvidia_loaded(f); t != Tri::kUnknown)
    put(v, "module.loaded", yes_no(t == Tri::kYes));
  if (const Tri t = uvm_loaded(f); t != Tri::kUnknown) put(v, "uvm.loaded", yes_no(t == Tri::kYes));
  if (const Flavour fl = module_flavour(f); fl != Flavour::kUnknown)
    put(v, "module.flavour", to_string(fl));
  const topo::Environment e = environment(f);
  put(v, "environment.kind", in_wsl(f) ? "wsl" : e.kind);
  put_known(v, "environment.container");
  if (!e.container.empty()) put(v, "environment.container", e.container);
  if (f.device_nodes.present()) {
    int gpu_nodes = 0;
    for (const auto& n : f.device_nodes.value)
      if (n.path.size() > 11 && n.path.rfind("/dev/nvidia", 0) == 0 &&
          std::isdigit(static_cast<unsigned char>(n.path[11])))
        ++gpu_nodes;
    put(v, "devices.gpu_nodes", std::to_string(gpu_nodes));
    put_known(v, "devices.open_error");
    for (const auto& n : f.device_nodes.value)
      if (n.open_rdwr && !n.open_rdwr->opened) put(v, "devices.open_error", n.open_rdwr->error);
  }
  if (f.pci.present()) put(v, "nvswitch.count", std::to_string(nvswitches(f).size()));
  if (f.daemons.present()) {
    put_known(v, "daemons");
    for (const auto& d : f.daemons.value) put(v, "daemons", d);
  }
}

void log_values(const Facts& f, FactView& v) {
  if (f.kernel.log_lines.present()) {
    put_known(v, "kernel.log");
    for (const auto& line : f.kernel.log_lines.value) {
      const auto named = bdfs_in_line(line);
      put(v, "kernel.log", line, named.size() == 1 ? named.front() : "");
    }
  }
  if (f.fabric_manager.log_lines.present()) {
    put_known(v, "fabric_manager.log");
    for (const auto& line : f.fabric_manager.log_lines.value) put(v, "fabric_manager.log", line);
  }
}

}  // namespace

FactView fact_view(const Facts& f) {
  FactView v;
  probe_values(f, v);
  peer_values(f, v);
  gpu_values(f, v);
  host_values(f, v);
  log_values(f, v);
  for (const auto& [name, value] : f.env) put(v, "env." + name, value);
  return v;
}

}  // namespace p2p::doctor
