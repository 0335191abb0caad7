// The host's P2P captures, as `vm plan --p2p` reads them: what each says about which GPU pairs
// really do P2P on the host. Told apart by content: nvidia-smi topo -p2p, p2pBandwidthLatencyTest,
// simpleP2P, nvbandwidth (text or -j), p2pcheck's bench results and doctor facts. Each becomes
// evidence on the host view's pairs, for or against, at its level (host_view.hpp). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "document/bench_document.hpp"
#include "topology/snapshot.hpp"
#include "vm/host_view.hpp"

namespace p2p::vm {

struct HostCapture {
  std::string source;  // the file
  std::string tool;    // "nvidia-smi topo -p2p", "p2pBandwidthLatencyTest", "p2pcheck bench", ...
  std::vector<std::string> bdfs;          // by the capture's GPU number; "" where it does not say
  std::vector<std::string> names;         // by the capture's GPU number; "" where it does not say
  std::vector<topo::P2pStatus> status;    // nvidia-smi topo -p2p matrices
  std::vector<std::vector<bool>> access;  // [a][b] peer access as the tool found it
  std::vector<doc::BandwidthResult> bandwidth;  // the tool's figures
  bool data_verified = false;          // its copies' data was checked (p2pcheck bench, simpleP2P)
  std::optional<doctor::Facts> facts;  // a doctor facts file
};

// Every capture the text holds (a paste may hold several tools' outputs). InputError
// "<source>: ..." for a text that is none of them or holds no P2P evidence (a topology alone,
// nccl-tests tables).
std::vector<HostCapture> parse_host_captures(const std::string& text, const std::string& source);

// The capture's word on each pair as evidence on `v`. GPUs are matched by bus id where the
// capture prints it, else by number (nvidia-smi and CUDA both number GPUs in bus order unless
// CUDA_DEVICE_ORDER says otherwise: said in the view's notes). InputError "<source>: ..." for a
// capture whose GPUs the topology does not have.
void add_capture_evidence(HostView& v, const HostCapture& c);

}  // namespace p2p::vm
