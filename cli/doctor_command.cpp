#include "cli/doctor_command.hpp"

#include <iostream>
#include <memory>

#include "cli/machine_outputs.hpp"
#include "common/error.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/utc_time.hpp"
#include "doctor/collect/collect.hpp"
#include "doctor/facts.hpp"
#include "doctor/report.hpp"
#include "doctor/rules.hpp"
#include "doctor/verdict.hpp"
#include "report/check_cases.hpp"
#include "report/run_lines.hpp"

namespace p2p::cli {

namespace {

struct DoctorOptions {
  std::string root;
  std::string facts;
  std::string save_facts;
  std::string format = "text";
  int logical_gpus = 0;
  std::string junit;
  std::string jsonl;
};

int run_doctor(const DoctorOptions& o) {
  if (o.format != "text" && o.format != "json")
    throw InputError("--format: unknown format '" + o.format + "' (expected text or json)");
  if (o.logical_gpus < 0 || o.logical_gpus == 1 || o.logical_gpus > 64)
    throw InputError("--logical-gpus: expected 2 to 64 (0: the real GPUs), got " +
                     std::to_string(o.logical_gpus));
  if (o.logical_gpus != 0 && !o.facts.empty())
    throw InputError(
        "--logical-gpus and --facts: saved facts are judged as they are; the peer copy runs only live");
  if (!o.root.empty() && !o.facts.empty())
    throw InputError(
        "--root and --facts: give one (--facts replays saved facts, --root reads files under a directory)");
  if (o.jsonl == "-" && o.format == "json")
    throw InputError(
        "--jsonl - and --format json both write to standard output: give --jsonl a file");
  const std::unique_ptr<JsonLines> lines = open_jsonl(o.jsonl);
  doctor::Facts facts;
  if (!o.facts.empty()) {
    facts = doctor::load_facts_file(o.facts);
    if (facts.source.empty()) facts.source = o.facts;
  } else {
    doctor::CollectOptions c;
    c.root = o.root.empty() ? "/" : o.root;
    c.peer_copy_logical_gpus = o.logical_gpus;
    facts = doctor::collect_facts(c);
  }
  if (!o.save_facts.empty())
    write_text_file_atomically(o.save_facts, json_text(doctor::facts_to_json(facts)) + "\n");
  const auto findings = doctor::judge(facts);
  const auto verdict = doctor::conclude(facts, findings);
  const nlohmann::json report_json = doctor::render_json(facts, findings, verdict);
  if (o.format == "json") {
    std::cout << json_text(report_json) << "\n";
  } else {
    (lines && lines->to_stdout() ? std::cerr : std::cout)
        << doctor::render_text(facts, findings, verdict);
  }
  if (lines) {
    for (const auto& l : report::doctor_lines(report_json, this_hostname(), utc_now_iso8601()))
      lines->write(l);
  }
  write_junit(o.junit, {report::doctor_suite(report_json, this_hostname(), "doctor")});
  return doctor::exit_code_of(findings);
}

}  // namespace

Command add_doctor_command(CLI::App& root) {
  auto opts = std::make_shared<DoctorOptions>();
  CLI::App* app = root.add_subcommand(
      "doctor", "Find out why CUDA or P2P does not work on this host, and what to do");
  app->add_option(
         "--root", opts->root,
         "Read /proc, /sys, /dev and /lib/firmware under DIR instead of / (no live probes)")
      ->type_name("DIR");
  app->add_option("--facts", opts->facts, "Judge a saved facts file instead of this host")
      ->type_name("FILE");
  app->add_option("--save-facts", opts->save_facts,
                  "Write the collected facts to FILE (attach it to a ticket)")
      ->type_name("FILE");
  app->add_option("--format", opts->format, "text (a checklist) or json")->type_name("text|json");
  app->add_option(
         "--logical-gpus", opts->logical_gpus,
         "Run the peer-copy check between N logical GPUs placed round-robin on the real ones "
         "(so every pair path runs on a host with fewer GPUs)")
      ->type_name("N");
  add_junit_option(app, opts->junit);
  add_jsonl_option(app, opts->jsonl);
  return Command{app, [opts] { return run_doctor(*opts); }};
}

}  // namespace p2p::cli
