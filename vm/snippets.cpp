#include "vm/snippets.hpp"

#include <algorithm>
#include <sstream>

#include "common/text.hpp"

namespace p2p::vm {

namespace {

std::string address(const PlannedGpu& g) {
  return g.bdf.empty() ? "<PCI address of GPU" + std::to_string(g.index) + ">" : g.bdf;
}

std::string clique_text(const std::optional<int>& c) { return c ? std::to_string(*c) : ""; }

// A word a POSIX shell reads back as itself: bare when no character of it means anything to a
// shell, else in single quotes (a quote inside as '\''). The qm lines are pasted into a root
// shell, and their values come from the VM's config.
std::string shell_word(const std::string& w) {
  static const std::string kPlain =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.,:=/+@%";
  if (!w.empty() && w.find_first_not_of(kPlain) == std::string::npos) return w;
  std::string out = "'";
  for (const char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

const PassedDevice* device_of(const VmConfig* c, const std::string& kind, const std::string& bdf) {
  if (c == nullptr || c->kind != kind || bdf.empty()) return nullptr;
  for (const auto& d : c->devices)
    if (d.host_bdf == bdf) return &d;
  return nullptr;
}

// The config's args without its clique settings, which the plan's replace: every other word
// exactly as the config writes it, quotes included.
std::vector<std::string> kept_args(const VmConfig* c) {
  std::vector<std::string> out;
  if (c == nullptr || c->kind != "proxmox") return out;
  const auto words = split_args(c->args);
  const auto written = split_args_as_written(c->args);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "-set" && i + 1 < words.size() &&
        words[i + 1].find("x-nv-gpudirect-clique") != std::string::npos) {
      ++i;
      continue;
    }
    out.push_back(written[i]);
  }
  return out;
}

// A value a terminal shows as it is and a paste gives back: no control byte (the text output
// writes one as "\x1b", which a paste would put into the config as four characters), no line
// break, valid UTF-8.
bool pastes_as_written(const std::string& value) {
  return value.find_first_of("\n\t") == std::string::npos && terminal_text(value) == value;
}

// The devices of a Proxmox entry ("hostpci1: A;B" passes two), in the order it names them.
std::vector<const PassedDevice*> entry_devices(const VmConfig* c, const std::string& entry) {
  std::vector<const PassedDevice*> out;
  if (c != nullptr)
    for (const auto& d : c->devices)
      if (d.entry == entry) out.push_back(&d);
  return out;
}

int next_hostpci(const VmConfig* c) {
  int next = 0;
  if (c != nullptr && c->kind == "proxmox")
    for (const auto& d : c->devices) {
      try {
        next = std::max(next, std::stoi(d.entry.substr(7)) + 1);  // "hostpci12" -> 13
      } catch (const std::exception&) {
      }
    }
  return next;
}

struct ProxmoxEntry {
  std::string key, value, on_qm_line;  // hostpciN, its value, that value as a shell word
};

// The hostpciN entries of the plan's GPUs and the args: words of their cliques. A GPU the config
// passes keeps its entry number and options; an entry of several devices ("A;B") stays one
// entry, as written, and its GPUs' cliques name QEMU's ids for them ("hostpci1.0", "hostpci1.1").
std::vector<ProxmoxEntry> proxmox_entries(const CliquePlan& p, const VmConfig* c,
                                          std::vector<std::string>& args) {
  std::vector<ProxmoxEntry> entries;
  int next = next_hostpci(c);
  for (const auto& g : p.gpus) {
    const PassedDevice* d = device_of(c, "proxmox", g.bdf);
    const std::string key = d != nullptr ? d->entry : "hostpci" + std::to_string(next++);
    const auto shared = d != nullptr ? entry_devices(c, key) : std::vector<const PassedDevice*>{};
    if (g.clique)
      args.push_back("-set device." + (shared.size() > 1 ? d->id : key) +
                     ".x-nv-gpudirect-clique=" + clique_text(g.clique));
    if (std::any_of(entries.begin(), entries.end(), [&](const auto& e) { return e.key == key; }))
      continue;  // a GPU of an entry already written
    std::string addresses = address(g);
    if (shared.size() > 1) {
      addresses.clear();
      for (const PassedDevice* other : shared)
        addresses += (addresses.empty() ? "" : ";") + other->address;
    }
    const std::string value =
        addresses + ",pcie=1" + (d != nullptr && !d->options.empty() ? "," + d->options : "");
    // On the qm line, a GPU without an address keeps its "<PCI address of GPUn>" placeholder
    // bare: it is there to be replaced, and a shell refuses it (a redirection from no file).
    entries.push_back({key, value, g.bdf.empty() ? value : shell_word(value)});
  }
  // In hostpciN order, as Proxmox writes them.
  const auto number = [](const std::string& key) { return std::stoi(key.substr(7)); };
  std::sort(entries.begin(), entries.end(),
            [&](const auto& x, const auto& y) { return number(x.key) < number(y.key); });
  return entries;
}

std::string proxmox(const CliquePlan& p, const VmConfig* c, const std::string& vmid) {
  std::vector<std::string> args = kept_args(c);
  const std::vector<ProxmoxEntry> entries = proxmox_entries(p, c, args);
  const bool q35 =
      c != nullptr && c->kind == "proxmox" && c->machine.find("q35") != std::string::npos;
  const std::string machine = q35 ? c->machine : "q35";
  const bool pastable = pastes_as_written(join(args, " ")) &&
                        std::all_of(entries.begin(), entries.end(), [](const ProxmoxEntry& e) {
                          return pastes_as_written(e.value);
                        });
  std::ostringstream out;
  out << "# back up first: cp /etc/pve/qemu-server/" << vmid << ".conf /root/" << vmid
      << ".conf.bak (a bad args: line stops the VM from booting)\n";
  if (!pastable) {
    out << "# no qm line: the config holds bytes a terminal cannot show as they are (written "
           "\\xNN below), and a paste would store them as text; make these changes in the file "
           "itself with an editor\n";
  } else {
    out << "qm set " << vmid << (q35 ? "" : " --machine q35");
    for (const auto& e : entries) out << " --" << e.key << " " << e.on_qm_line;
    out << "\n";
    if (!args.empty())
      out << "qm set " << vmid << " --args " << shell_word(join(args, " ")) << "\n";
  }
  out << "# " << (pastable ? "or, as" : "as") << " lines of /etc/pve/qemu-server/" << vmid
      << ".conf:\n";
  out << "machine: " << machine << "\n";
  for (const auto& e : entries) out << e.key << ": " << e.value << "\n";
  if (!args.empty()) out << "args: " << join(args, " ") << "\n";
  out << "# and no hidden=1 on the cpu: line (it adds kvm=off; the driver then ignores cliques)\n";
  return out.str();
}

std::string alias_of(const PlannedGpu& g, const VmConfig* c) {
  const PassedDevice* d = device_of(c, "libvirt", g.bdf);
  return d != nullptr && d->user_alias ? d->id : "ua-gpu" + std::to_string(g.index);
}

// One line per device: short enough to read on an 8-GPU host, still XML to paste.
std::string hostdev(const PlannedGpu& g, const std::string& alias) {
  const std::string& b = g.bdf;
  const std::string where = b.size() == 12 ? "<address domain='0x" + b.substr(0, 4) + "' bus='0x" +
                                                 b.substr(5, 2) + "' slot='0x" + b.substr(8, 2) +
                                                 "' function='0x" + b.substr(11, 1) + "'/>"
                                           : "<address .../><!-- " + address(g) + " -->";
  return "<hostdev mode='subsystem' type='pci' managed='yes'><source>" + where +
         "</source><alias name='" + alias + "'/></hostdev>\n";
}

std::string libvirt(const CliquePlan& p, const VmConfig* c) {
  std::ostringstream out, override_block, commandline;
  out << "<!-- <domain type='kvm' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>, with "
         "<type arch='x86_64' machine='q35'>hvm</type> and no <kvm><hidden state='on'/> -->\n"
      << "<!-- in <devices>, each GPU on a pcie-root-port of its own: -->\n";
  for (const auto& g : p.gpus) {
    const std::string alias = alias_of(g, c);
    out << hostdev(g, alias);
    if (!g.clique) continue;
    override_block << "  <qemu:device alias='" << alias
                   << "'><qemu:frontend><qemu:property name='x-nv-gpudirect-clique' "
                      "type='unsigned' value='"
                   << *g.clique << "'/></qemu:frontend></qemu:device>\n";
    commandline << "  <qemu:arg value='-set'/><qemu:arg value='device." << alias
                << ".x-nv-gpudirect-clique=" << *g.clique << "'/>\n";
  }
  if (override_block.str().empty()) return out.str();
  out << "<!-- after </devices>, libvirt 8.2 and later: -->\n<qemu:override>\n"
      << override_block.str() << "</qemu:override>\n"
      << "<!-- libvirt before 8.2, whose QEMU is older than 6.2 (JSON -device ignores -set):\n"
      << "<qemu:commandline>\n"
      << commandline.str() << "</qemu:commandline> -->\n";
  return out.str();
}

std::string qemu(const CliquePlan& p) {
  std::ostringstream out;
  out << "qemu-system-x86_64 -machine q35,accel=kvm -cpu host \\\n";
  for (std::size_t i = 0; i < p.gpus.size(); ++i) {
    const auto& g = p.gpus[i];
    out << "  -device pcie-root-port,id=gpu-port" << i << ",chassis=" << (i + 1)
        << ",bus=pcie.0 -device vfio-pci,host=" << address(g) << ",bus=gpu-port" << i
        << (g.clique ? ",x-nv-gpudirect-clique=" + clique_text(g.clique) : "") << " \\\n";
  }
  out << "  ...\n";
  return out.str();
}

std::string cloud_hypervisor(const CliquePlan& p) {
  std::ostringstream out;
  out << "cloud-hypervisor ... --device";
  for (const auto& g : p.gpus)
    out << " path=/sys/bus/pci/devices/" << address(g) << "/"
        << (g.clique ? ",x_nv_gpudirect_clique=" + clique_text(g.clique) : "");
  out << "\n";
  return out.str();
}

}  // namespace

Snippets write_snippets(const CliquePlan& p, const VmConfig* config, const std::string& vmid) {
  std::string id = vmid;
  if (id.empty() && config != nullptr) id = config->vmid;
  if (id.empty()) id = "<vmid>";
  return {proxmox(p, config, id), libvirt(p, config), qemu(p), cloud_hypervisor(p)};
}

}  // namespace p2p::vm
