#include "cli/doctor_command.hpp"

#include <iostream>
#include <memory>

#include "cli/machine_outputs.hpp"
#include "cli/validators.hpp"
#include "common/error.hpp"
#include "common/json_text.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "common/utc_time.hpp"
#include "doctor/render.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"
#include "session/doctor_run.hpp"

namespace p2p::cli {

namespace {

struct DoctorOptions {
  session::DoctorRequest request;  // --facts, --root, --logical-gpus, --save-facts
  std::string format = "text";
  std::string junit;
  std::string jsonl;
};

int run_doctor_command(const DoctorOptions& o) {
  if (o.format != "text" && o.format != "json")
    throw InputError("--format: unknown format '" + o.format + "' (expected text or json)");
  OutputRequest paths;
  add_output(paths, "--save-facts", o.request.save_facts);
  add_output(paths, "--junit", o.junit);
  add_output(paths, "--json", o.request.json);
  add_output(paths, "--jsonl", o.jsonl);
  add_input(paths, "--facts", o.request.facts_file);
  if (o.format == "json") paths.stdout_owner = "--format json";
  check_output_paths(paths);
  const std::unique_ptr<JsonLines> lines = open_jsonl_beside(o.jsonl, o.format);
  session::DoctorRequest request = o.request;
  request.junit = o.junit;
  const session::DoctorOutcome d = session::run_doctor(request);
  if (o.format == "json") {
    std::cout << json_text(d.verdict_json) << "\n";
  } else {
    (output_takes_stdout(paths) ? std::cerr : std::cout)
        << terminal_text(doctor::render_verdict_text(d.facts, d.findings, d.verdict));
  }
  if (lines) {
    for (const auto& l : report::doctor_lines(d.verdict_json, this_hostname(), utc_now_iso8601()))
      lines->write(l);
  }
  return d.exit_code;
}

}  // namespace

Command add_doctor_command(CLI::App& root) {
  auto opts = std::make_shared<DoctorOptions>();
  CLI::App* app = root.add_subcommand(
      "doctor", "Find out why CUDA or P2P does not work on this host, and what to do");
  app->add_option(
         "--root", opts->request.root,
         "Read /proc, /sys, /dev and /lib/firmware under DIR instead of / (no live probes)")
      ->type_name("DIR");
  app->add_option("--facts", opts->request.facts_file,
                  "Judge a saved facts file instead of this host")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--save-facts", opts->request.save_facts,
                  "Write the collected facts to FILE (attach it to a ticket; - for stdout, the "
                  "checklist then goes to stderr)")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--format", opts->format, "text (a checklist) or json")->type_name("text|json");
  app->add_option("--json", opts->request.json,
                  "Also write the report (what --format json prints) to FILE, atomically; - for "
                  "stdout, the checklist then goes to stderr")
      ->type_name("FILE|-")
      ->check(file_path());
  app->add_option(
         "--logical-gpus", opts->request.logical_gpus,
         "Run the peer-copy check between N logical GPUs placed round-robin on the real ones "
         "(so every pair path runs on a host with fewer GPUs; default: the real GPUs only)")
      ->type_name("N")
      ->check(count_between(0, 64));
  add_junit_option(app, opts->junit);
  add_jsonl_option(app, opts->jsonl);
  return Command{app, [opts] { return run_doctor_command(*opts); }};
}

}  // namespace p2p::cli
