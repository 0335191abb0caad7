// Where each judged figure ran, written into its check (doc::Check::places) so that the suspect
// (document/suspects.hpp) can name a PCIe switch, a NUMA node or a kind of path that the failing
// figures share when no single GPU stands out. Read from the document's topology, the only
// place that knows it; a document without one gets no places. Pure.
#pragma once

#include "acceptance/document_view.hpp"
#include "document/verdict.hpp"

namespace p2p::accept {

// For every check whose subject names GPUs:
// - a pair of GPUs: "path <class>" (NV4, PIX, ... SYS), and "switch <bus id>" and "numa <node>"
//   where both GPUs share them;
// - one GPU (its host link, or the GPU itself): "switch <bus id>" where it sits behind one, and
//   "numa <node>" where known.
// A switch is named by its upstream port, the bridge below the root port on the GPU's PCIe path.
void add_places(doc::RunVerdict& v, const DocumentView& view);

}  // namespace p2p::accept
