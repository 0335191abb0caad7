#include "session/export_run.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "report/export_input.hpp"
#include "report/junit.hpp"
#include "session/judge_run.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {

void write_export(const ExportRequest& r, double now_unix) {
  const bool override_host = !r.hostname.empty();
  report::ExportInput in =
      report::read_export_input(read_json_file(r.document), r.document,
                                override_host ? r.hostname : this_hostname(), override_host);
  if (in.kind == report::ExportInput::Kind::kResults) {
    settle_verdict(in.results, r.policy, "export");
  } else if (!r.policy.empty()) {
    throw InputError("--policy: judges a results document; " + r.document +
                     " is a gate decision or doctor report, which carries its own verdict");
  }
  if (r.out != "-" && same_file(r.out, r.document))
    throw InputError(r.out + ": is the document being read; refusing to overwrite it");
  write_text_file_atomically(r.out, r.to == "junit"
                                        ? report::render_junit(report::export_suites(in))
                                        : report::export_prometheus(in, now_unix));
}

}  // namespace p2p::session
