#include <map>
#include <set>

#include "acceptance/grading.hpp"
#include "acceptance/rules.hpp"
#include "common/byte_size.hpp"

namespace p2p::accept {
namespace {

using doc::CollectiveStatus;
using doc::Outcome;
using doc::RankEnd;

std::string subject(const doc::CollectiveResult& r, const std::string& prefix) {
  std::string s = prefix + r.collective + " " + r.dtype + (r.in_place ? " in_place" : "") + " " +
                  std::to_string(r.nranks) + "r";
  if (r.src_rank && r.dst_rank)
    s += " " + std::to_string(*r.src_rank) + "->" + std::to_string(*r.dst_rank);
  return s + " " + format_bytes(r.size_bytes, ByteStyle::kCompact);
}

// A rank process that died takes the collectives of the others down with it: their errors are
// its consequence, and the run is an error (exit 4), not a verdict against the links.
void judge_results(Judging& j, const doc::NcclRun& run, const std::string& prefix,
                   bool a_rank_died) {
  int verified = 0, unverified = 0;
  for (const auto& r : run.results) {
    switch (r.status) {
      case CollectiveStatus::kOk: (r.wrong_elements ? verified : unverified) += 1; break;
      case CollectiveStatus::kWrong:
        add_check(j.verdict, make_check("verification", subject(r, prefix), Outcome::kFail,
                                        (r.wrong_elements
                                             ? std::to_string(*r.wrong_elements) + " wrong elements"
                                             : std::string("wrong data")) +
                                            (r.detail.empty() ? "" : ": " + r.detail),
                                        priority::kVerification));
        break;
      case CollectiveStatus::kHang:
        j.verdict.hung = true;
        add_check(j.verdict, make_check("hang", subject(r, prefix), Outcome::kFail,
                                        r.detail.empty() ? "did not finish in time" : r.detail,
                                        priority::kHang));
        break;
      case CollectiveStatus::kError:
        add_check(j.verdict, make_check("collective", subject(r, prefix),
                                        a_rank_died ? Outcome::kError : Outcome::kFail,
                                        r.detail.empty() ? "NCCL returned an error" : r.detail,
                                        priority::kError));
        break;
    }
  }
  if (verified > 0)
    add_check(j.verdict, make_check("verification", prefix + "collectives", Outcome::kPass,
                                    std::to_string(verified) + " result(s), every one verified",
                                    priority::kVerification));
  if (unverified > 0) {
    add_caveat(j.verdict, doc::CaveatKind::kUnverified,
               std::to_string(unverified) + " NCCL result(s) not verified");
    add_check(j.verdict, make_check("verification", prefix + "collectives", Outcome::kSkipped,
                                    std::to_string(unverified) + " result(s) not verified",
                                    priority::kVerification));
  }
}

void judge_ranks(Judging& j, const doc::NcclRun& run, const std::string& prefix) {
  for (const auto& e : run.rank_process_ends) {
    const std::string who = prefix + "rank" + std::to_string(e.rank);
    std::string text =
        doc::to_string(e.ended) + std::string(e.detail.empty() ? "" : ": " + e.detail);
    if (!e.last_case.empty()) text += " (last completed case " + e.last_case + ")";
    Outcome o = Outcome::kPass;
    int prio = priority::kError;
    switch (e.ended) {
      case RankEnd::kDone: break;
      case RankEnd::kStopped: o = Outcome::kSkipped; break;
      case RankEnd::kHang:
      case RankEnd::kKilled:
        j.verdict.hung = true;
        o = Outcome::kFail;
        prio = priority::kHang;
        break;
      case RankEnd::kDied:
      case RankEnd::kNoResult:
        o = Outcome::kError;
        prio = priority::kHang;  // the cause: before the errors of the ranks it took down
        break;
      case RankEnd::kError: o = Outcome::kError; break;
    }
    add_check(j.verdict, make_check("rank_process", who, o, text, prio));
  }
}

void judge_host_pairs(Judging& j, const doc::NcclCluster& c) {
  for (const auto& p : c.host_pairs) {
    if (p.status == CollectiveStatus::kOk) continue;
    if (p.status == CollectiveStatus::kHang) j.verdict.hung = true;
    const std::string who = c.hosts[static_cast<std::size_t>(p.src_host)] + "->" +
                            c.hosts[static_cast<std::size_t>(p.dst_host)];
    add_check(j.verdict, make_check("host_pair", who, Outcome::kFail,
                                    std::string(doc::to_string(p.status)) +
                                        (p.detail.empty() ? "" : ": " + p.detail),
                                    priority::kVerification));
  }
}

// Ranks that share one GPU measure the tool's own copies, and one rank moves nothing over a
// bus: their bandwidth figures mean nothing about the host's links.
void judge_meaning(Judging& j, const doc::NcclRun& run) {
  std::map<std::pair<std::string, std::string>, int> per_gpu;  // (host, bus id) -> ranks
  for (const auto& d : run.environment.devices) ++per_gpu[{d.hostname, d.pci_bus_id}];
  const int ranks = static_cast<int>(run.environment.devices.size());
  const int gpus = static_cast<int>(per_gpu.size());
  if (ranks > gpus && gpus > 0) {
    const std::string note = std::to_string(ranks) + " ranks on " + std::to_string(gpus) +
                             " GPU(s): bandwidth figures measure the tool, not the links";
    add_caveat(j.verdict, doc::CaveatKind::kLogicalGpus, note);
    add_check(j.verdict, make_check("logical_gpus", "nccl", Outcome::kNotMeaningful, note,
                                    priority::kGpuCount));
  }
  int one_rank = 0;
  for (const auto& r : run.results) one_rank += r.nranks <= 1;
  if (one_rank > 0)
    add_check(j.verdict, make_check("one_rank", "nccl", Outcome::kNotMeaningful,
                                    std::to_string(one_rank) +
                                        " result(s) of one rank: no data crosses a link (in "
                                        "place, none moves at all), so their bandwidth means "
                                        "nothing",
                                    priority::kGpuCount));
  // Nothing judged is not a pass: a run whose every result is of one rank said nothing about
  // the links, which compare already fails as "nothing was compared".
  if (!run.results.empty() && one_rank == static_cast<int>(run.results.size()))
    add_check(j.verdict,
              make_check("figures", "nccl", Outcome::kFail,
                         "no NCCL figure was judged: every result is of one rank (run on two or "
                         "more GPUs to measure a link)",
                         priority::kGpuCount));
}

}  // namespace

void judge_nccl(Judging& j, const doc::NcclResultsSection& s) {
  const auto died = [](const doc::NcclRun& run) {
    for (const auto& e : run.rank_process_ends)
      if (e.ended == RankEnd::kDied || e.ended == RankEnd::kNoResult) return true;
    return false;
  };
  judge_meaning(j, s.run);
  judge_results(j, s.run, "", died(s.run));
  judge_ranks(j, s.run, "");
  if (s.run.cluster) judge_host_pairs(j, *s.run.cluster);
  if (s.p2p_off) {
    judge_results(j, *s.p2p_off, "p2p_off ", died(*s.p2p_off));
    judge_ranks(j, *s.p2p_off, "p2p_off ");
  }
  for (const auto& v : s.verdicts) {
    std::string who = v.collective + " " + v.dtype + (v.in_place ? " in_place" : "");
    if (v.src_rank && v.dst_rank)
      who += " " + std::to_string(*v.src_rank) + "->" + std::to_string(*v.dst_rank);
    doc::Check c = make_check(
        "min_busbw", who, doc::outcome_of(v.status),
        v.detail.empty() ? "busbw against --min-busbw " + gbps(v.min_busbw_gbps) : v.detail,
        priority::kThreshold);
    c.value = v.median_busbw_gbps;
    c.expected = v.min_busbw_gbps;
    c.unit = "GB/s";
    add_check(j.verdict, std::move(c));
  }
}

}  // namespace p2p::accept
