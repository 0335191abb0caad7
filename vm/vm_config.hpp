// A VM's configuration as far as GPUDirect cliques care: the machine type, whether the KVM
// signature is hidden, the PCI devices passed through (with the QEMU device id a clique setting
// must name), the clique settings already there, emulated PCIe switches. Read from a Proxmox
// /etc/pve/qemu-server/<vmid>.conf or a libvirt domain XML; pure functions of the text.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p2p::vm {

struct PassedDevice {
  std::string entry;     // where it is written: "hostpci0", "hostdev #2"
  std::string id;        // the QEMU device id: "hostpci0", "hostpci0.0", "ua-gpu0", "hostdev1"
  std::string address;   // the host address as written ("0000:01:00.0", "01:00"); "" for a mapping
  std::string host_bdf;  // normalised "0000:01:00.0" (function 0 where none is written)
  bool function_given = true;
  std::optional<bool> pcie;  // Proxmox pcie=1 (a PCIe root port in the guest); libvirt: null
  std::string guest_bus;     // libvirt: the model of the controller the guest address is on
  // libvirt: the guest-side <address type='pci'> as a bus id ("0000:05:00.0"); its bus is the
  // controller's index, which the guest's firmware usually keeps as the bus number. "" for none.
  std::string guest_address;
  std::string options;      // Proxmox: the entry's other options ("x-vga=1,rombar=0")
  std::string mapping;      // Proxmox mapping=<name> (a resource mapping: no address here)
  bool user_alias = false;  // libvirt: the alias was set in the XML ("ua-..."), so it is stable
};

// A clique already set in the config.
struct CliqueSetting {
  std::string target;  // the device id it names ("hostpci0"), or the host address (-device ...)
  long long clique = 0;
  std::string how;      // "args -set", "qemu:commandline -set", "qemu:override", "-device"
  std::string written;  // the value as the config writes it ("3", "0x3", "abc"): -1 above when
                        // it is not a whole number
};

struct VmConfig {
  std::string kind;        // "proxmox" | "libvirt"
  std::string source;      // the file
  std::string vmid;        // Proxmox: the <vmid> of <vmid>.conf where the name says it
  std::string name;        // Proxmox name:, libvirt <name>
  std::string machine;     // as written ("q35", "pc-q35-8.1", "pc-i440fx-8.0"); "" = none given
  std::string kvm_hidden;  // how the KVM signature is hidden ("cpu: hidden=1"); "" = not
  std::string hypervisor_flag_off;  // how the CPU's hypervisor flag is cleared; "" = not
  std::vector<PassedDevice> devices;
  std::vector<CliqueSetting> cliques;
  std::vector<std::string> emulated_switches;  // "controller index 5 (pcie-switch-downstream-port)"
  std::string args;                            // Proxmox args: as written
  bool has_pending = false;     // Proxmox [PENDING] section: changes applied at next boot
  bool qemu_namespace = false;  // libvirt: xmlns:qemu declared on <domain>
  std::vector<std::string> undeclared_qemu;  // libvirt: qemu: elements without the namespace
  // Entries the hypervisor would not take as written, each with its line: a key given twice
  // (Proxmox keeps one of them), a device whose address is not a PCI address (it passes no GPU,
  // so the plan would silently leave that GPU out).
  std::vector<std::string> entry_problems;
};

// Told apart by content: an XML document whose root is <domain> is libvirt, `key: value` lines
// are Proxmox. InputError "<source>: ..." for anything else (JSON, a shell script, an empty
// file), naming the first line that is neither.
VmConfig parse_vm_config(const std::string& text, const std::string& source);
VmConfig read_vm_config_file(const std::string& path);

VmConfig parse_proxmox_config(const std::string& text, const std::string& source);
VmConfig parse_libvirt_config(const std::string& text, const std::string& source);

// "01:00.0" / "0000:01:00" / "0000:01:00.0" -> "0000:01:00.0" (function 0 where none is given),
// lower case; "" when it is not a PCI address. `function_given` says whether it had one.
std::string normalize_pci_address(const std::string& address, bool* function_given = nullptr);

// "device.<id>.x-nv-gpudirect-clique=<value>" (an argument of -set) -> {id, value}; nullopt for
// any other argument.
std::optional<std::pair<std::string, std::string>> clique_set_argument(const std::string& arg);
// The value of x-nv-gpudirect-clique= in a -device option list; nullopt where it is not set.
std::optional<std::string> clique_device_option(const std::string& options);

// A whole number as a config writes it ("16", "0x04"); -1 where it is not one (QEMU refuses such
// a clique ID as it refuses one over 15).
long long config_number(const std::string& text);

// Splits a QEMU command line the way a shell would for Proxmox args: white space, with single
// and double quotes grouping.
std::vector<std::string> split_args(const std::string& args);

// The words of split_args as the config writes them, quotes and all (`'device.a=1 b'`): what a
// plan keeps of the user's args: line goes back exactly as it was written.
std::vector<std::string> split_args_as_written(const std::string& args);

}  // namespace p2p::vm
