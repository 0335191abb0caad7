#include "cli/judge_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "cli/machine_outputs.hpp"
#include "cli/validators.hpp"
#include "common/json_text.hpp"
#include "common/output_paths.hpp"
#include "common/text.hpp"
#include "document/suspects.hpp"
#include "session/judge_run.hpp"

namespace p2p::cli {
namespace {

struct JudgeCommandOptions {
  session::JudgeRequest request;
  int expect_gpus = 0;  // 0: not given
  std::string format = "text";
};

int run_judge_command(JudgeCommandOptions o) {
  if (o.expect_gpus > 0) o.request.expect_gpus = o.expect_gpus;
  const session::JudgeOutcome j = session::run_judge(o.request);
  if (o.format == "json") {
    nlohmann::json out = j.verdict;
    out.update(doc::suspects_json(j.verdict));  // the suspect and each GPU's outcome, derived
    std::cout << json_text(out) << "\n";
  } else {
    std::string text =
        "document: " + o.request.document + "\npolicy:   " +
        (o.request.policy.empty() ? "the default acceptance policy" : o.request.policy) + "\n";
    if (!j.stored_headline.empty()) text += "the run itself said: " + j.stored_headline + "\n";
    std::cout << terminal_text(text + "\n" + doc::format_verdict(j.verdict, "judge"));
  }
  std::cout << std::flush;
  return j.exit_code;
}

}  // namespace

Command add_judge_command(CLI::App& root) {
  auto o = std::make_shared<JudgeCommandOptions>();
  CLI::App* app = root.add_subcommand(
      "judge",
      "Judge a kept bench or nccl document again under a policy (no GPU needed): every figure "
      "against its link ceiling, its reverse, its path class and its staged path");
  app->add_option("document", o->request.document, "bench or nccl --json results document")
      ->required()
      ->type_name("FILE");
  app->add_option(
         "--policy", o->request.policy,
         "Policy JSON with acceptance thresholds (results/policies/acceptance-defaults.json "
         "lists every key with its default); gate keys in it are ignored here")
      ->type_name("FILE")
      ->check(file_path());
  app->add_option("--expect-gpus", o->expect_gpus,
                  "The GPUs the host must have shown: fail when the document measured fewer")
      ->check(count_between(1, 4096));
  app->add_option("--format", o->format, "text or json (the p2pcheck.verdict object)")
      ->check(CLI::IsMember({"text", "json"}));
  // As merge and compare: a run with a caveat (logical GPUs, interrupted, ...) is not a whole run.
  add_allow_caveat_option(app, o->request.allow_caveats, "of the run");
  add_junit_option(app, o->request.junit);
  app->add_option("--prom", o->request.prom,
                  "Also write the document with this verdict as a Prometheus textfile "
                  "(atomically), for node_exporter")
      ->type_name("FILE.prom")
      ->check(file_path());
  return Command{app, [o] {
                   OutputRequest paths;
                   add_output(paths, "--junit", o->request.junit);
                   add_output(paths, "--prom", o->request.prom);
                   add_input(paths, "document", o->request.document);
                   add_input(paths, "--policy", o->request.policy);
                   check_output_paths(paths);
                   return run_judge_command(*o);
                 }};
}

}  // namespace p2p::cli
