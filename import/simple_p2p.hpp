// The CUDA sample simpleP2P: which GPUs can access each other ("> Peer access from <name>
// (GPU0) -> <name> (GPU1) : Yes"), one cudaMemcpyPeer rate between the first two GPUs with
// peer access (64 MB copies that alternate direction), and whether the kernel's data verified
// ("Test passed" or "Verification error @ element ..."). Where no pair has peer access the
// sample waives itself: that is the evidence it gives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "import/imported.hpp"

namespace p2p::import {

struct SimpleP2pOutput {
  std::vector<std::string> devices;      // names by GPU index, where printed
  std::vector<std::vector<int>> access;  // [a][b]: 1 yes, 0 no, -1 not printed
  std::optional<int> copy_a, copy_b;     // the pair the rate was measured between
  std::optional<double> memcpy_gbps;     // "cudaMemcpyPeer / cudaMemcpy between ...: X GB/s"
  std::optional<int> buffer_mib;         // "Allocating buffers (64MB on ...)"
  int verification_errors = 0;           // "Verification error @ element" lines
  std::optional<bool> passed;            // "Test passed" / "Test failed!"; nullopt if cut
  bool waived = false;                   // "... not available ..., waiving test."
  // "CUDA error at simpleP2P.cu:130 code=205(cudaErrorMapBufferObjectFailed)
  // "cudaDeviceEnablePeerAccess(gpuid[1], 0)"": the call that stopped the sample, "" if none.
  std::string cuda_error;
  std::optional<int> enabling_a, enabling_b;  // "Enabling peer access between GPU0 and GPU1..."
};

bool looks_like_simple_p2p(const std::string& text);

// InputError "<source>: not simpleP2P output: <what>" where no peer-access line, rate or waiver
// is found.
SimpleP2pOutput parse_simple_p2p(const std::string& text, const std::string& source);

// The rate -> ce_unidir_write between its pair (a copy alternating direction: said in the
// notes), failed where the data did not verify; a CUDA error that stopped the sample -> that
// figure in error, naming the call; the peer-access lines -> p2p_access.
ImportedFigures simple_p2p_figures(const SimpleP2pOutput& out, const std::string& file);

}  // namespace p2p::import
