// A libvirt domain (virsh dumpxml): the machine type, <kvm><hidden>, the CPU's hypervisor
// feature, PCI controllers (emulated switches), <hostdev> devices with their aliases, and the
// QEMU namespace's <commandline> and <override> where clique settings live.
#include <map>

#include "common/error.hpp"
#include "common/text.hpp"
#include "vm/mini_xml.hpp"
#include "vm/vm_config.hpp"

namespace p2p::vm {

namespace {

constexpr const char* kQemuNamespace = "http://libvirt.org/schemas/domain/qemu/1.0";

std::string hex_field(const XmlElement& address, const char* key, int width) {
  std::string v = address.attribute(key);
  if (v.rfind("0x", 0) == 0) v = v.substr(2);
  while (static_cast<int>(v.size()) < width) v = "0" + v;
  return v;
}

// <address domain='0x0000' bus='0x01' slot='0x00' function='0x0'/> -> "0000:01:00.0".
std::string source_bdf(const XmlElement& address) {
  return normalize_pci_address(hex_field(address, "domain", 4) + ":" +
                               hex_field(address, "bus", 2) + ":" + hex_field(address, "slot", 2) +
                               "." + hex_field(address, "function", 1).substr(0, 1));
}

// The prefix the QEMU namespace is bound to on <domain> ("qemu" by convention); "" when none.
std::string qemu_prefix(const XmlElement& domain) {
  for (const auto& [key, value] : domain.attributes)
    if (key.rfind("xmlns:", 0) == 0 && value == kQemuNamespace) return key.substr(6);
  return "";
}

void read_features(VmConfig& c, const XmlElement& domain) {
  if (const XmlElement* os = domain.child("os"))
    if (const XmlElement* type = os->child("type")) c.machine = type->attribute("machine");
  if (const XmlElement* features = domain.child("features"))
    if (const XmlElement* kvm = features->child("kvm"))
      if (const XmlElement* hidden = kvm->child("hidden"))
        if (hidden->attribute("state") == "on") c.kvm_hidden = "<kvm><hidden state='on'/>";
  if (const XmlElement* cpu = domain.child("cpu"))
    for (const XmlElement* f : cpu->all("feature"))
      if (f->attribute("name") == "hypervisor" && f->attribute("policy") == "disable")
        c.hypervisor_flag_off = "<feature policy='disable' name='hypervisor'/>";
}

void read_hostdevs(VmConfig& c, const XmlElement& devices) {
  std::map<std::string, std::string> controller_model;  // index -> model
  for (const XmlElement* ctl : devices.all("controller")) {
    if (ctl->attribute("type") != "pci") continue;
    const std::string model = ctl->attribute("model");
    controller_model[ctl->attribute("index")] = model;
    if (model.rfind("pcie-switch-", 0) == 0)
      c.emulated_switches.push_back("controller index " + ctl->attribute("index") + " (" + model +
                                    ")");
  }
  int n = 0;
  for (const XmlElement* h : devices.all("hostdev")) {
    const int number = n++;  // libvirt numbers every hostdev's alias, PCI or not
    if (h->attribute("type") != "pci") continue;
    PassedDevice d;
    d.entry = "hostdev #" + std::to_string(number + 1);
    if (const XmlElement* src = h->child("source"))
      if (const XmlElement* a = src->child("address")) {
        d.host_bdf = source_bdf(*a);
        // A source address libvirt cannot take ("0xcx") would leave the GPU out of the plan
        // without a word: it is a trap, named with its line, as a Proxmox one is.
        if (d.host_bdf.empty())
          c.entry_problems.push_back("line " + std::to_string(a->line) + ": " + d.entry +
                                     "'s source address (domain '" + a->attribute("domain") +
                                     "', bus '" + a->attribute("bus") + "', slot '" +
                                     a->attribute("slot") + "', function '" +
                                     a->attribute("function") + "') is not a PCI address");
      }
    d.address = d.host_bdf;
    const XmlElement* alias = h->child("alias");
    d.user_alias = alias != nullptr && alias->attribute("name").rfind("ua-", 0) == 0;
    d.id = alias != nullptr ? alias->attribute("name") : "hostdev" + std::to_string(number);
    if (const XmlElement* a = h->child("address")) {
      if (a->attribute("type") == "pci") d.guest_address = source_bdf(*a);
      const std::string bus = std::to_string(config_number(a->attribute("bus")));
      const auto model = controller_model.find(bus);
      d.guest_bus = model != controller_model.end() ? model->second : "bus " + bus;
    }
    c.devices.push_back(d);
  }
}

void read_qemu_namespace(VmConfig& c, const XmlElement& domain, const std::string& p) {
  if (const XmlElement* cmd = domain.child(p + ":commandline")) {
    std::vector<std::string> args;
    for (const XmlElement* a : cmd->all(p + ":arg")) args.push_back(a->attribute("value"));
    for (std::size_t i = 0; i + 1 < args.size(); ++i)
      if (const auto set = args[i] == "-set" ? clique_set_argument(args[i + 1]) : std::nullopt)
        c.cliques.push_back(
            {set->first, config_number(set->second), "qemu:commandline -set", set->second});
  }
  for (const XmlElement* o : domain.all(p + ":override"))
    for (const XmlElement* dev : o->all(p + ":device"))
      if (const XmlElement* front = dev->child(p + ":frontend"))
        for (const XmlElement* prop : front->all(p + ":property"))
          if (prop->attribute("name") == "x-nv-gpudirect-clique")
            c.cliques.push_back({dev->attribute("alias"), config_number(prop->attribute("value")),
                                 "qemu:override", prop->attribute("value")});
}

}  // namespace

VmConfig parse_libvirt_config(const std::string& text, const std::string& source) {
  const auto root = parse_xml(without_bom(text), source);
  if (root->name != "domain")
    throw InputError(source + ": XML whose root is <" + root->name +
                     ">, not a libvirt <domain> (virsh dumpxml)");
  VmConfig c;
  c.kind = "libvirt";
  c.source = source;
  if (const XmlElement* name = root->child("name")) c.name = name->text;
  read_features(c, *root);
  if (const XmlElement* devices = root->child("devices")) read_hostdevs(c, *devices);
  const std::string prefix = qemu_prefix(*root);
  c.qemu_namespace = !prefix.empty();
  if (c.qemu_namespace) {
    read_qemu_namespace(c, *root, prefix);
  } else {
    // Without the declaration libvirt does not know the element and drops it.
    for (const auto& child : root->children)
      if (child->name.rfind("qemu:", 0) == 0)
        c.undeclared_qemu.push_back("<" + child->name + "> (line " + std::to_string(child->line) +
                                    ")");
  }
  return c;
}

}  // namespace p2p::vm
