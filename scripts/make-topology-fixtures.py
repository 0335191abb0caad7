#!/usr/bin/env python3
"""Writes the synthetic hwloc 2.x XML fixtures under topology/tests/fixtures/.

They describe machines we cannot capture in CI, in the exact format `lstopo --of xml`
(hwloc 2.x) writes, so the same discovery code reads them as reads a live host:

  rtxpro6000-vm.xml   8x RTX PRO 6000 Blackwell (10de:2bb5, Gen5 x16) passed through VFIO
                      into a KVM/QEMU q35 guest: one host bridge, eight emulated root ports
                      (1b36:000c), one vNUMA node. Every GPU pair is PHB.
  rtxpro6000-lxc.xml  the same host seen from a privileged LXC container, i.e. the host's
                      own PCIe tree: two sockets, one NUMA node each, every GPU behind its
                      own root complex (host bridge). NODE inside a socket, SYS across.
  pcie-switch.xml     6x A100 PCIe (10de:20b5, Gen4 x16) behind Broadcom PEX switches under
                      one host bridge: two GPUs per leaf switch (PIX), two leaf switches
                      under one top switch (PXB), a third switch on another root port (PHB),
                      and an NVLink bridge set (12 links) on each PIX pair, recorded the way
                      hwloc's NVML backend does (NVLinkBandwidth distances, MB/s).
  hgx-nvswitch.xml    4x H100 SXM5 (10de:2330) on a baseboard whose NVLinks all go to four
                      NVSwitches (10de:22a3, class 0680; 5+4+4+5 = 18 links per GPU): hwloc
                      records GPU-to-switch bandwidth only (heterogeneous distances), and every
                      GPU pair is NV18 as nvidia-smi shows it. PCIe: two switches, one per root port.

Each GPU also carries its HD-audio function (10de:22e8, class 0403) so the fixtures check
that only display/3D controllers count as GPUs.

Run from the repository root; every file written is then loaded by `lstopo-no-graphics`
(hwloc 2.x) to prove hwloc accepts it:
    scripts/make-topology-fixtures.py
"""
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology", "tests", "fixtures")

# hwloc's per-direction link bandwidth in GB/s (include/private/misc.h): lanes x GT/s x encoding / 8.
def link_gbps(gen, width):
    if gen <= 2:
        lane = 2.5 * gen * 0.8
    elif gen <= 5:
        lane = 8.0 * (1 << (gen - 3)) * 128 / 130
    else:
        lane = 8.0 * (1 << (gen - 3)) * 242 / 256
    return "%f" % (lane * width / 8)


def bitmap(bits):
    """hwloc's bitmap string: 32-bit words, most significant first, comma separated."""
    if not bits:
        return "0x0"
    top = max(bits) // 32
    words = []
    for w in range(top, -1, -1):
        v = 0
        for b in bits:
            if b // 32 == w:
                v |= 1 << (b % 32)
        words.append("0x%08x" % v)
    return ",".join(words)


class Writer:
    def __init__(self):
        self.lines = []
        self.gp = 0

    def next_gp(self):
        self.gp += 1
        return self.gp

    def open(self, depth, attrs, close=False):
        text = " ".join('%s="%s"' % kv for kv in attrs)
        self.lines.append("  " * depth + "<object %s%s>" % (text, "/" if close else ""))

    def close(self, depth):
        self.lines.append("  " * depth + "</object>")

    def info(self, depth, name, value):
        self.lines.append("  " * depth + '<info name="%s" value="%s"/>' % (name, value))


def cpu_attrs(cpus, nodes):
    return [("cpuset", bitmap(cpus)), ("complete_cpuset", bitmap(cpus)),
            ("nodeset", bitmap(nodes)), ("complete_nodeset", bitmap(nodes))]


def pci_busid(domain, bus, dev, fn):
    return "%04x:%02x:%02x.%x" % (domain, bus, dev, fn)


class Pci:
    """A PCI subtree: host bridges contain bridges and devices; devices may carry OS devices."""

    def __init__(self, kind, **kw):
        self.kind = kind  # hostbridge | bridge | dev
        self.kw = kw
        self.children = kw.get("children", [])
        self.gp = None


def emit_pci(w, node, depth, bridge_depth, osdevs):
    kw = node.kw
    node.gp = w.next_gp()
    if node.kind == "hostbridge":
        attrs = [("type", "Bridge"), ("gp_index", node.gp), ("bridge_type", "0-1"), ("depth", 0),
                 ("bridge_pci", "%04x:[%02x-%02x]" % (kw["domain"], kw["sec"], kw["sub"]))]
    elif node.kind == "bridge":
        attrs = [("type", "Bridge"), ("gp_index", node.gp), ("bridge_type", "1-1"), ("depth", bridge_depth),
                 ("bridge_pci", "%04x:[%02x-%02x]" % (kw["domain"], kw["sec"], kw["sub"])),
                 ("pci_busid", kw["busid"]), ("pci_type", "0604 [%s] [%s] %s" % (kw["ids"], kw["subids"], kw["rev"])),
                 ("pci_link_speed", kw["link"])]
    else:
        attrs = [("type", "PCIDev"), ("gp_index", node.gp), ("pci_busid", kw["busid"]),
                 ("pci_type", "%s [%s] [%s] %s" % (kw["cls"], kw["ids"], kw["subids"], kw["rev"])),
                 ("pci_link_speed", kw.get("link", "0.000000"))]
    if kw.get("subtype"):
        attrs.insert(1, ("subtype", kw["subtype"]))
    model = kw.get("gpu_model")
    if not node.children and not model:
        w.open(depth, attrs, close=True)
        return
    w.open(depth, attrs)
    for child in node.children:
        emit_pci(w, child, depth + 1, bridge_depth + 1, osdevs)
    if model:
        # What hwloc's NVML backend adds under each NVIDIA GPU.
        gp = w.next_gp()
        index = len(osdevs)
        osdevs.append(gp)
        w.open(depth + 1, [("type", "OSDev"), ("gp_index", gp), ("name", "nvml%d" % index), ("subtype", "NVML"),
                           ("osdev_type", 1)])
        w.info(depth + 2, "Backend", "NVML")
        w.info(depth + 2, "GPUVendor", "NVIDIA Corporation")
        w.info(depth + 2, "GPUModel", model)
        w.close(depth + 1)
    w.close(depth)


def gpu_functions(domain, bus, device_id, cls, subids, model, gen, width):
    """The GPU (function 0) and its HD-audio function (function 1)."""
    return [
        Pci("dev", busid=pci_busid(domain, bus, 0, 0), cls=cls, ids="10de:%04x" % device_id, subids=subids,
            rev="a1", link=link_gbps(gen, width), gpu_model=model),
        Pci("dev", busid=pci_busid(domain, bus, 0, 1), cls="0403", ids="10de:22e8", subids=subids, rev="a1",
            link=link_gbps(gen, width)),
    ]


def write_topology(name, hostname, packages, pci_by_package, nvlink=None, nvswitch=None):
    """packages: list of (cpus, numa_os_index). pci_by_package: list of lists of host bridges."""
    w = Writer()
    all_cpus = sorted(c for cpus, _ in packages for c in cpus)
    all_nodes = sorted(n for _, n in packages)
    w.lines += ['<?xml version="1.0" encoding="UTF-8"?>', '<!DOCTYPE topology SYSTEM "hwloc2.dtd">',
                '<topology version="2.0">']
    w.open(1, [("type", "Machine"), ("os_index", 0), ("cpuset", bitmap(all_cpus)),
               ("complete_cpuset", bitmap(all_cpus)), ("allowed_cpuset", bitmap(all_cpus)),
               ("nodeset", bitmap(all_nodes)), ("complete_nodeset", bitmap(all_nodes)),
               ("allowed_nodeset", bitmap(all_nodes)), ("gp_index", w.next_gp())])
    for k, v in [("Backend", "Linux"), ("OSName", "Linux"), ("HostName", hostname), ("Architecture", "x86_64"),
                 ("hwlocVersion", "2.9.0"), ("ProcessName", "lstopo-no-graphics")]:
        w.info(2, k, v)
    osdevs = []
    for p, (cpus, node) in enumerate(packages):
        w.open(2, [("type", "Package"), ("os_index", p)] + cpu_attrs(cpus, [node]) + [("gp_index", w.next_gp())])
        w.open(3, [("type", "NUMANode"), ("os_index", node)] + cpu_attrs(cpus, [node]) +
               [("gp_index", w.next_gp()), ("local_memory", 270582939648)], close=True)
        for c in cpus:
            w.open(3, [("type", "Core"), ("os_index", c)] + cpu_attrs([c], [node]) + [("gp_index", w.next_gp())])
            w.open(4, [("type", "PU"), ("os_index", c)] + cpu_attrs([c], [node]) + [("gp_index", w.next_gp())],
                   close=True)
            w.close(3)
        for hb in pci_by_package[p]:
            emit_pci(w, hb, 3, 0, osdevs)
        w.close(2)
    w.close(1)
    if nvlink:
        # NVLinkBandwidth as hwloc's NVML backend records it: MB/s per direction summed over the
        # links joining two GPUs (25000 per NVLink 3.0 link), 1000000 on the diagonal.
        n = len(osdevs)
        values = [[0] * n for _ in range(n)]
        for i in range(n):
            values[i][i] = 1000000
        for (a, b), links in nvlink.items():
            values[a][b] = values[b][a] = 25000 * links
        w.lines.append('  <distances2 type="OSDev" nbobjs="%d" kind="9" name="NVLinkBandwidth" indexing="gp">' % n)
        idx = " ".join(str(g) for g in osdevs) + " "
        w.lines.append('    <indexes length="%d">%s</indexes>' % (len(idx), idx))
        flat = [v for row in values for v in row]
        for start in range(0, len(flat), 10):
            chunk = " ".join(str(v) for v in flat[start:start + 10]) + " "
            w.lines.append('    <u64values length="%d">%s</u64values>' % (len(chunk), chunk))
        w.lines.append("  </distances2>")
    if nvswitch:
        # GPU-to-NVSwitch links only, as hwloc's NVML backend records an NVSwitch baseboard:
        # one heterogeneous matrix over the GPUs' OS devices and the switches' PCI devices.
        switches, links_per_switch = nvswitch
        objs = ["OSDev:%d" % g for g in osdevs] + ["PCIDev:%d" % sw.gp for sw in switches]
        n = len(objs)
        values = [[0] * n for _ in range(n)]
        for i in range(n):
            values[i][i] = 1000000
        for g in range(len(osdevs)):
            for k, links in enumerate(links_per_switch):
                s = len(osdevs) + k
                values[g][s] = values[s][g] = 25000 * links
        w.lines.append('  <distances2hetero nbobjs="%d" kind="25" name="NVLinkBandwidth">' % n)
        idx = " ".join(objs) + " "
        w.lines.append('    <indexes length="%d">%s</indexes>' % (len(idx), idx))
        flat = [v for row in values for v in row]
        for start in range(0, len(flat), 10):
            chunk = " ".join(str(v) for v in flat[start:start + 10]) + " "
            w.lines.append('    <u64values length="%d">%s</u64values>' % (len(chunk), chunk))
        w.lines.append("  </distances2hetero>")
    w.lines.append("</topology>")
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        f.write("\n".join(w.lines) + "\n")
    return path


RTX = dict(device_id=0x2bb5, cls="0300", subids="10de:204e", model="NVIDIA RTX PRO 6000 Blackwell Server Edition",
           gen=5, width=16)


def rtxpro6000_vm():
    # q35: host bridge device at 00:00.0, root ports 00:02.0-00:02.7 (multifunction), buses 01-08.
    children = [Pci("dev", busid="0000:00:00.0", cls="0600", ids="8086:29c0", subids="1af4:1100", rev="00")]
    for i in range(8):
        bus = i + 1
        children.append(Pci("bridge", domain=0, sec=bus, sub=bus, busid=pci_busid(0, 0, 2, i), ids="1b36:000c",
                            subids="1b36:0000", rev="00", link=link_gbps(4, 32),
                            children=gpu_functions(0, bus, **RTX)))
    hb = Pci("hostbridge", domain=0, sec=0x00, sub=0x08, children=children)
    return write_topology("rtxpro6000-vm.xml", "rtx-vm", [(list(range(32)), 0)], [[hb]])


def rtxpro6000_lxc():
    # Two EPYC sockets (NPS1): four root complexes each, one GPU behind each complex's root port.
    bridges = [[], []]
    for i in range(8):
        base = i * 0x20
        children = [
            Pci("dev", busid=pci_busid(0, base, 0, 0), cls="0600", ids="1022:14a4", subids="1022:14a4", rev="01"),
            Pci("bridge", domain=0, sec=base + 1, sub=base + 1, busid=pci_busid(0, base, 1, 1), ids="1022:14ab",
                subids="1022:1453", rev="01", link=link_gbps(5, 16),
                children=gpu_functions(0, base + 1, **RTX)),
        ]
        bridges[i // 4].append(Pci("hostbridge", domain=0, sec=base, sub=base + 0x1f, children=children))
    return write_topology("rtxpro6000-lxc.xml", "rtx-host",
                          [(list(range(0, 32)), 0), (list(range(32, 64)), 1)], bridges)


def pcie_switch():
    a100 = dict(device_id=0x20b5, cls="0302", subids="10de:1533", model="NVIDIA A100 80GB PCIe", gen=4, width=16)
    pex = dict(ids="1000:c030", subids="1000:a064", rev="b0", link=link_gbps(4, 16))

    def leaf_switch(usp_bus, first_gpu_bus, upstream):
        # upstream port on usp_bus, two downstream ports on usp_bus+1, GPUs on the next two buses.
        dsp_bus = usp_bus + 1
        dsps = []
        for k in range(2):
            gbus = first_gpu_bus + k
            dsps.append(Pci("bridge", domain=0, sec=gbus, sub=gbus, busid=pci_busid(0, dsp_bus, k, 0),
                            children=gpu_functions(0, gbus, **a100), **pex))
        return Pci("bridge", domain=0, sec=dsp_bus, sub=first_gpu_bus + 1, busid=upstream, children=dsps, **pex)

    # Root port 00:01.0 -> top switch (USP 01:00.0, DSPs 02:00.0 and 02:01.0) -> two leaf switches.
    leaf_a = leaf_switch(0x03, 0x05, "0000:03:00.0")
    leaf_b = leaf_switch(0x07, 0x09, "0000:07:00.0")
    top_dsps = [
        Pci("bridge", domain=0, sec=0x03, sub=0x06, busid="0000:02:00.0", children=[leaf_a], **pex),
        Pci("bridge", domain=0, sec=0x07, sub=0x0a, busid="0000:02:01.0", children=[leaf_b], **pex),
    ]
    top = Pci("bridge", domain=0, sec=0x02, sub=0x0a, busid="0000:01:00.0", children=top_dsps, **pex)
    rp0 = Pci("bridge", domain=0, sec=0x01, sub=0x0a, busid="0000:00:01.0", ids="8086:347a", subids="8086:0000",
              rev="04", link=link_gbps(4, 16), children=[top])
    # Root port 00:03.0 -> one leaf switch (USP 10:00.0) with two GPUs on buses 12 and 13.
    leaf_c = leaf_switch(0x10, 0x12, "0000:10:00.0")
    rp1 = Pci("bridge", domain=0, sec=0x10, sub=0x13, busid="0000:00:03.0", ids="8086:347a", subids="8086:0000",
              rev="04", link=link_gbps(4, 16), children=[leaf_c])
    hb = Pci("hostbridge", domain=0, sec=0x00, sub=0x13, children=[rp0, rp1])
    return write_topology("pcie-switch.xml", "switch-box", [(list(range(24)), 0)], [[hb]],
                          nvlink={(0, 1): 12, (2, 3): 12, (4, 5): 12})


def hgx_nvswitch():
    h100 = dict(device_id=0x2330, cls="0302", subids="10de:16c1", model="NVIDIA H100 80GB HBM3", gen=5, width=16)
    pex = dict(ids="1000:c030", subids="1000:a064", rev="b0", link=link_gbps(5, 16))
    root_ports = []
    for r, base in enumerate([0x10, 0x20]):
        # root port 00:0N.0 -> switch USP on base, DSPs on base+1, GPUs on base+2 and base+3.
        dsps = [Pci("bridge", domain=0, sec=base + 2 + k, sub=base + 2 + k, busid=pci_busid(0, base + 1, k, 0),
                    children=gpu_functions(0, base + 2 + k, **h100), **pex) for k in range(2)]
        usp = Pci("bridge", domain=0, sec=base + 1, sub=base + 3, busid=pci_busid(0, base, 0, 0), children=dsps, **pex)
        root_ports.append(Pci("bridge", domain=0, sec=base, sub=base + 3, busid=pci_busid(0, 0, 1 + r, 0),
                              ids="8086:352a", subids="8086:0000", rev="04", link=link_gbps(5, 16), children=[usp]))
    hb = Pci("hostbridge", domain=0, sec=0x00, sub=0x23, children=root_ports)
    # The four NVSwitches (PCI class 0680) sit on their own root complex; hwloc's NVML backend
    # marks them with subtype "NVSwitch" when it finds them at the far end of GPU links.
    switches = [Pci("dev", busid=pci_busid(0, 0x41 + k, 0, 0), cls="0680", ids="10de:22a3", subids="10de:1796",
                    rev="a1", link=link_gbps(4, 2), subtype="NVSwitch") for k in range(4)]
    sw_bridges = [Pci("bridge", domain=0, sec=0x41 + k, sub=0x41 + k, busid=pci_busid(0, 0x40, 1 + k, 0),
                      ids="8086:352a", subids="8086:0000", rev="04", link=link_gbps(4, 2), children=[switches[k]])
                  for k in range(4)]
    hb_sw = Pci("hostbridge", domain=0, sec=0x40, sub=0x44, children=sw_bridges)
    return write_topology("hgx-nvswitch.xml", "hgx", [(list(range(16)), 0)], [[hb, hb_sw]],
                          nvswitch=(switches, [5, 4, 4, 5]))


def main():
    os.makedirs(OUT, exist_ok=True)
    written = [rtxpro6000_vm(), rtxpro6000_lxc(), pcie_switch(), hgx_nvswitch()]
    for path in written:
        # hwloc must accept it: lstopo fails (non-zero) on anything it cannot import.
        subprocess.run(["lstopo-no-graphics", "--whole-io", "--input", path, "--of", "console", "-"],
                       check=True, stdout=subprocess.DEVNULL)
        print("wrote and validated", os.path.relpath(path))


if __name__ == "__main__":
    sys.exit(main())
