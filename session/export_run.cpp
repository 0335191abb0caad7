#include "session/export_run.hpp"

#include "common/error.hpp"
#include "common/file_io.hpp"
#include "report/export_input.hpp"
#include "report/junit.hpp"
#include "session/judge_run.hpp"
#include "session/machine_outputs.hpp"

namespace p2p::session {

void write_export(const ExportRequest& r, double now_unix) {
  if (r.junit.empty() && r.prom.empty())
    throw InputError("export: no output: give --junit FILE, --prom FILE or both (- for stdout)");
  if (r.junit == "-" && r.prom == "-")
    throw InputError("--junit - and --prom - both write to standard output: give one a file");
  for (const std::string& out : {r.junit, r.prom})
    if (!out.empty() && out != "-" && same_file(out, r.document))
      throw InputError(out + ": is the document being read; refusing to overwrite it");
  const bool override_host = !r.hostname.empty();
  report::ExportInput in =
      report::read_export_input(read_json_file(r.document), r.document,
                                override_host ? r.hostname : this_hostname(), override_host);
  if (in.kind == report::ExportInput::Kind::kResults) {
    settle_verdict(in.results, r.policy, "export", r.allow_caveats);
  } else if (!r.policy.empty() || !r.allow_caveats.empty()) {
    throw InputError(std::string(r.policy.empty() ? "--allow-caveat" : "--policy") +
                     ": judges a results document; " + r.document +
                     " is a gate decision or doctor report, which carries its own verdict");
  }
  std::vector<FileToWrite> files;
  if (!r.junit.empty()) files.push_back({r.junit, report::render_junit(report::export_suites(in))});
  if (!r.prom.empty()) files.push_back({r.prom, report::export_prometheus(in, now_unix)});
  write_text_files_atomically(files);
}

}  // namespace p2p::session
