// An NCCL INFO log (NCCL_DEBUG_FILE) as `p2pcheck nccl` reads it after a run: parsed into the
// transport matrix, which is written to and read back from the results document and printed.
#include "document/nccl_run.hpp"
#include "fuzz/fuzz_input.hpp"
#include "nccl/transport_log.hpp"
#include "report/nccl_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const nccl::NcclLog log = nccl::parse_nccl_log(text);
    // The run knows its rank count; the log's own claim is the worst case a log can make.
    int nranks = 2;
    for (const auto& r : log.ranks) nranks = std::max(nranks, std::min(r.nranks, 64));
    doc::NcclRun run;
    run.transport = nccl::transport_matrix(log, nranks);
    const nlohmann::json j = run.transport;
    run.transport = j.get<doc::TransportMatrix>();
    (void)report::format_transport_matrix(run);
    (void)report::format_pair_matrix(run);
  });
}
