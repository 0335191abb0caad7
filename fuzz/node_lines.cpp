// One host's JSON lines (node --jsonl, bench --jsonl) as `p2pcheck merge` reads them: read, merged
// into a fleet with a second copy of itself, and written as the fleet's text, cluster document
// and JUnit suite, as merge does.
#include "cluster/cluster_junit.hpp"
#include "cluster/cluster_text.hpp"
#include "cluster/host_lines.hpp"
#include "cluster/merge.hpp"
#include "document/cluster_document.hpp"
#include "fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace p2p;
  return fuzz::feed(data, size, [](const std::string& text) {
    const cluster::HostRun host = cluster::read_host_lines(text, fuzz::kSource);
    cluster::HostRun other = host;
    other.hostname += "-copy";
    other.source += "-copy";
    const cluster::MergeOptions options;
    const cluster::ClusterRun run = cluster::merge_hosts({host, other}, options);
    (void)cluster::format_cluster_text(run, options.outliers, "merge");
    doc::ClusterDocument d;
    d.written_by = "merge";
    d.created_utc = "2026-12-03T00:00:00Z";
    d.outlier_rule = options.outliers;
    d.run = run;
    (void)nlohmann::json(d).dump();
    (void)cluster::cluster_suite(run, "2026-12-03T00:00:00Z");
  });
}
