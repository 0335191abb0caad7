// The pieces of reading hwloc XML in a child process, for tests and fuzz targets: the loader
// that runs in the child, and the isolation with the loader and deadline as parameters (tests
// crash or hang a loader on purpose). Callers use snapshot_from_hwloc_xml_text (discovery.hpp).
#pragma once

#include <functional>
#include <string>

#include "topology/snapshot.hpp"

namespace p2p::topo {

// How long hwloc may take over one XML. The largest real captures load in well under a second;
// a slower load is a hang inside hwloc.
constexpr int kHwlocXmlTimeoutMs = 8'000;

// InputError unless `text` looks like hwloc 1.x or 2.x XML (checked before any child is started).
void check_xml_text(const std::string& text, const std::string& path);

// Text -> snapshot in this process (hwloc, then classification): what the child runs.
TopologySnapshot snapshot_from_hwloc_xml_in_process(const std::string& text,
                                                    const std::string& path);

using XmlLoader = std::function<TopologySnapshot(const std::string& text, const std::string& path)>;

// Runs `load` in a forked child and rebuilds its snapshot from the JSON it sends back.
// InputError "<path>: hwloc crashed reading this XML (SIGSEGV)" when the child dies by a signal,
// "... did not finish ..." past `timeout_ms`; the loader's own InputError passes through.
TopologySnapshot load_hwloc_xml_isolated(const std::string& text, const std::string& path,
                                         const XmlLoader& load, int timeout_ms);

}  // namespace p2p::topo
