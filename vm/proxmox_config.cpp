// A Proxmox VE VM config (/etc/pve/qemu-server/<vmid>.conf): `key: value` lines, `#` lines for
// the description, and after the current settings `[PENDING]` and `[snapshot]` sections, which
// are not what the VM runs with now.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

namespace {

// "hostpci12" for prefix "hostpci": the prefix and one to three digits.
bool numbered(const std::string& key, const std::string& prefix) {
  if (key.size() <= prefix.size() || key.size() > prefix.size() + 3 || key.rfind(prefix, 0) != 0)
    return false;
  return std::all_of(key.begin() + static_cast<long>(prefix.size()), key.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

bool known_key(const std::string& key) {
  static const std::set<std::string> kKeys = {
      "agent",  "args",    "balloon",     "bios",    "boot",       "bootdisk",
      "cores",  "cpu",     "efidisk0",    "hotplug", "kvm",        "machine",
      "memory", "meta",    "name",        "numa",    "onboot",     "ostype",
      "scsihw", "smbios1", "sockets",     "tablet",  "tpmstate0",  "vga",
      "vcpus",  "vmgenid", "description", "startup", "protection", "hookscript"};
  for (const char* prefix : {"hostpci", "scsi", "virtio", "ide", "sata", "net", "unused", "usb",
                             "serial", "parallel", "numa", "ipconfig", "efidisk"})
    if (numbered(key, prefix)) return true;
  return kKeys.count(key) != 0;
}

bool valid_key(const std::string& key) {
  if (key.empty() || key.size() > 64 || key[0] < 'a' || key[0] > 'z') return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// A pasted recipe may comment a value ("cpu: host   # hidden=1 removed"); Proxmox itself does
// not write that, so everything from " #" on is taken for a comment.
std::string without_comment(const std::string& value) {
  const auto at = value.find(" #");
  return trim(at == std::string::npos ? value : value.substr(0, at));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);) out.push_back(trim(item));
  return out;
}

std::string vmid_of(const std::string& source) {
  const auto slash = source.rfind('/');
  const std::string name = slash == std::string::npos ? source : source.substr(slash + 1);
  const auto dot = name.size() > 5 ? name.size() - 5 : 0;
  const std::string stem = name.substr(0, dot);
  const bool digits = !stem.empty() && std::all_of(stem.begin(), stem.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; });
  return digits && name.compare(dot, std::string::npos, ".conf") == 0 ? stem : "";
}

// hostpciN: "<address>[;<address>...][,option=value...]", or host=<address>, or mapping=<name>.
void read_hostpci(VmConfig& c, const std::string& key, const std::string& value, int line) {
  std::vector<std::string> addresses;
  std::string mapping, options;
  std::optional<bool> pcie;
  const auto items = split(value, ',');
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto eq = items[i].find('=');
    const std::string k = eq == std::string::npos ? "" : items[i].substr(0, eq);
    const std::string v = eq == std::string::npos ? items[i] : items[i].substr(eq + 1);
    if (i == 0 && eq == std::string::npos) {
      addresses = split(v, ';');
    } else if (k == "host") {
      addresses = split(v, ';');
    } else if (k == "mapping") {
      mapping = v;
    } else if (k == "pcie") {
      pcie = v == "1" || v == "on" || v == "yes";
    } else if (!items[i].empty()) {
      options += (options.empty() ? "" : ",") + items[i];
    }
  }
  if (!mapping.empty()) addresses = {""};
  for (std::size_t j = 0; j < addresses.size(); ++j) {
    PassedDevice d;
    d.entry = key;
    d.address = addresses[j];
    d.mapping = mapping;
    d.options = options;
    d.pcie = pcie.value_or(false);
    d.host_bdf = normalize_pci_address(d.address, &d.function_given);
    if (!d.address.empty() && d.host_bdf.empty())
      c.entry_problems.push_back("line " + std::to_string(line) + ": " + key + "'s address '" +
                                 d.address + "' is not a PCI address (0000:41:00.0)");
    // Several devices, or one without a function (all its functions pass), get ids "hostpciN.J".
    const bool dotted = addresses.size() > 1 || (!d.address.empty() && !d.function_given);
    d.id = dotted ? key + "." + std::to_string(j) : key;
    c.devices.push_back(d);
  }
}

// A Proxmox args: line is a few QEMU options; one of megabytes would be split into millions of
// words and clique settings (about 100 times its size in memory). Past this it is refused.
constexpr std::size_t kMaxArgsBytes = std::size_t{64} * 1024;

void read_args(VmConfig& c, const std::string& value, int line) {
  if (value.size() > kMaxArgsBytes)
    throw InputError(c.source + ": line " + std::to_string(line) +
                     ": args: " + std::to_string(value.size()) + " bytes, more than the " +
                     std::to_string(kMaxArgsBytes) + " an args: line p2pcheck reads holds");
  c.args = value;
  const auto words = split_args(value);
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& flag = words[i];
    const std::string& arg = words[i + 1];
    if (const auto set = flag == "-set" ? clique_set_argument(arg) : std::nullopt)
      c.cliques.push_back({set->first, config_number(set->second), "args -set", set->second});
    if (flag == "-cpu" && arg.find("kvm=off") != std::string::npos)
      c.kvm_hidden = "args: -cpu ...,kvm=off";
    if (flag == "-cpu" && arg.find("hypervisor=off") != std::string::npos)
      c.hypervisor_flag_off = "args: -cpu ...,hypervisor=off";
    if (flag == "-device" && arg.find("x3130") != std::string::npos)
      c.emulated_switches.push_back("args: -device " + arg.substr(0, arg.find(',')));
    const auto option = flag == "-device" && arg.rfind("vfio-pci", 0) == 0
                            ? clique_device_option(arg)
                            : std::nullopt;
    if (option) c.cliques.push_back({arg, config_number(*option), "-device", *option});
  }
}

void apply(VmConfig& c, const std::string& key, const std::string& value, int line) {
  if (key == "machine") c.machine = value;
  if (key == "name") c.name = value;
  if (key == "cpu") {
    for (const auto& item : split(value, ','))
      if (item == "hidden=1") c.kvm_hidden = "cpu: hidden=1 (Proxmox adds kvm=off)";
  }
  if (key == "args") read_args(c, value, line);
  if (numbered(key, "hostpci")) read_hostpci(c, key, value, line);
}

std::string shown(const std::string& line) {
  return line.size() > 60 ? line.substr(0, 57) + "..." : line;
}

}  // namespace

VmConfig parse_proxmox_config(const std::string& text, const std::string& source) {
  VmConfig c;
  c.kind = "proxmox";
  c.source = source;
  c.vmid = vmid_of(source);
  std::istringstream in(without_bom(text));
  bool any_known = false;
  int n = 0;
  std::map<std::string, int> first_line;  // each key's first line
  for (std::string raw; std::getline(in, raw);) {
    ++n;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {  // [PENDING], [snapshot]: not the settings the VM runs with
      c.has_pending = c.has_pending || line == "[PENDING]";
      break;
    }
    const auto colon = line.find(':');
    const std::string key = colon == std::string::npos ? "" : line.substr(0, colon);
    if (!valid_key(key))
      throw InputError(source + ": line " + std::to_string(n) + ": '" + shown(line) +
                       "' is not a Proxmox `key: value` line, and the file is no libvirt domain "
                       "XML");
    any_known = any_known || known_key(key);
    if (const auto [first, fresh] = first_line.emplace(key, n); !fresh)
      c.entry_problems.push_back("line " + std::to_string(n) + ": " + key +
                                 " given again (first on line " + std::to_string(first->second) +
                                 "): Proxmox keeps only one of them");
    apply(c, key, without_comment(line.substr(colon + 1)), n);
  }
  if (!any_known)
    throw InputError(source +
                     ": no Proxmox VM setting in it (memory:, cores:, hostpciN:, machine:, "
                     "...): not a VM config");
  return c;
}

}  // namespace p2p::vm
