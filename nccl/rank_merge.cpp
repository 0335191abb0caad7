#include "nccl/rank_merge.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "common/exit_codes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/median.hpp"
#include "nccl/json_util.hpp"

namespace p2p::nccl {

namespace {

std::string line_of(const nlohmann::json& j) { return json_text(j, -1) + "\n"; }

const RankLog* log_of(const std::vector<RankLog>& logs, int rank) {
  for (const auto& l : logs) {
    if (l.rank == rank) return &l;
  }
  return nullptr;
}

const RankExit* exit_of(const std::vector<RankExit>& exits, int rank) {
  for (const auto& e : exits) {
    if (e.rank == rank) return &e;
  }
  return nullptr;
}

std::string last_case_of(const RankLog& log) {
  return log.cases.empty() ? "" : log.cases.back().case_name;
}

doc::RankEnd ended_of(const RankExit& e, const RankLog& log) {
  if (e.no_result) return doc::RankEnd::kNoResult;
  if (e.killed_by_parent) return doc::RankEnd::kKilled;
  if (log.end) return log.end->end;
  // A rank whose HangWatchdog fired (NCCL init, abort or destroy never returned) exits with the
  // hang code and no final line.
  if (!e.signal && e.exit_code == kExitHang) return doc::RankEnd::kHang;
  return doc::RankEnd::kDied;
}

std::string rank_label(const RankExit& e) {
  return "rank " + std::to_string(e.rank) + " (pid " + std::to_string(e.pid) + ")";
}

// Why `rank` has no line for a case others reported.
std::string why_missing(int rank, const RankLog* log, const RankExit* e) {
  static const RankLog kEmpty;
  const RankLog& l = log != nullptr ? *log : kEmpty;
  if (e == nullptr) return "rank " + std::to_string(rank) + " reported nothing for this case";
  const std::string last = last_case_of(l);
  const std::string when = last.empty() ? "before its first case" : "after " + last;
  const doc::RankEnd ended = ended_of(*e, l);
  if (ended == doc::RankEnd::kHang || ended == doc::RankEnd::kError) {
    return rank_label(*e) + " had stopped its sweep (" + doc::to_string(ended) + ") " + when;
  }
  if (ended == doc::RankEnd::kStopped)
    return rank_label(*e) + " was stopped when another rank process ended, " + when;
  if (ended == doc::RankEnd::kDone)
    return rank_label(*e) + " finished without a line for this case";
  return rank_label(*e) + " " + describe_exit(*e, l) + " " + when;
}

}  // namespace

std::string to_line(const RankReadyLine& l) {
  return line_of({{"kind", "ready"},
                  {"rank", l.rank},
                  {"pid", l.pid},
                  {"buffer_allocator", l.buffer_allocator}});
}

std::string to_line(const RankCaseLine& l) {
  return line_of({{"kind", "case"},
                  {"case", l.case_name},
                  {"index", l.index},
                  {"rank", l.rank},
                  {"status", l.status},
                  {"detail", l.detail},
                  {"sample_us", l.sample_us},
                  {"wrong_elements", optional_json(l.wrong_elements)}});
}

std::string to_line(const RankEndLine& l) {
  return line_of({{"kind", "end"}, {"rank", l.rank}, {"end", l.end}, {"detail", l.detail}});
}

std::string progress_line(int rank, const std::string& what) {
  return line_of({{"kind", "progress"}, {"rank", rank}, {"what", what}});
}

void add_rank_line(RankLog& log, const std::string& line) {
  if (line.empty()) return;
  try {
    const nlohmann::json j = parse_own_json(line, "rank line");
    const std::string kind = j.at("kind").get<std::string>();
    if (kind == "ready") {
      log.ready = RankReadyLine{j.at("rank").get<int>(), j.at("pid").get<int>(),
                                j.at("buffer_allocator").get<std::string>()};
    } else if (kind == "case") {
      RankCaseLine c;
      c.case_name = j.at("case").get<std::string>();
      c.index = j.at("index").get<int>();
      c.rank = j.at("rank").get<int>();
      c.status = j.at("status").get<doc::CollectiveStatus>();
      c.detail = j.at("detail").get<std::string>();
      c.sample_us = j.at("sample_us").get<std::vector<double>>();
      c.wrong_elements = optional_from<std::uint64_t>(j, "wrong_elements");
      log.cases.push_back(std::move(c));
    } else if (kind == "end") {
      log.end = RankEndLine{j.at("rank").get<int>(), j.at("end").get<doc::RankEnd>(),
                            j.at("detail").get<std::string>()};
    }
    // "progress" and kinds of later versions: nothing to merge.
  } catch (const std::exception&) {  // parse_own_json's runtime_error, or a key missing
    ++log.unreadable_lines;          // cut short by a killed process, or not ours
  }
}

RankLog parse_rank_log(int rank, const std::string& text) {
  RankLog log;
  log.rank = rank;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) add_rank_line(log, line);
  return log;
}

RankLogReader::RankLogReader(int rank, std::string path) : path_(std::move(path)) {
  log_.rank = rank;
}

const RankLog& RankLogReader::read(bool final) {
  std::ifstream in(path_, std::ios::binary);
  if (in) {
    in.seekg(static_cast<std::streamoff>(offset_));
    std::string added((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    offset_ += added.size();
    partial_ += added;
  }
  std::size_t start = 0;
  for (auto nl = partial_.find('\n'); nl != std::string::npos; nl = partial_.find('\n', start)) {
    add_rank_line(log_, partial_.substr(start, nl - start));
    start = nl + 1;
  }
  partial_.erase(0, start);
  if (final && !partial_.empty()) {
    add_rank_line(log_, partial_);
    partial_.clear();
  }
  return log_;
}

int status_severity(doc::CollectiveStatus status) {
  if (status == doc::CollectiveStatus::kHang) return 3;
  if (status == doc::CollectiveStatus::kError) return 2;
  if (status == doc::CollectiveStatus::kWrong) return 1;
  return 0;
}

std::string describe_exit(const RankExit& e, const RankLog& log) {
  if (e.no_result) return "sent no result (" + e.why_killed + ")";
  std::string out;
  if (e.signal) {
    out = "killed by signal " + std::to_string(*e.signal);
  } else if (e.exit_code) {
    out = "exited with code " + std::to_string(*e.exit_code);
  } else {
    out = "ended";
  }
  if (e.killed_by_parent) out += " (by p2pcheck: " + e.why_killed + ")";
  if (!log.end && !e.signal) out += " without its final line";
  return out;
}

namespace {

// One planned case from the lines its participants reported: the worst status, every detail
// (a missing line says why), wrong elements summed, and per timed group the slowest rank's
// sample; a time only where every participant timed it and the data arrived.
MergedCase merge_case(int index, const MergeCase& planned,
                      const std::map<int, const RankCaseLine*>& by_rank,
                      const std::vector<RankLog>& logs, const std::vector<RankExit>& exits) {
  MergedCase m;
  m.index = index;
  std::vector<std::string> details;
  bool all_timed = true;
  for (int r : planned.participants) {
    const auto it = by_rank.find(r);
    if (it == by_rank.end()) {
      all_timed = false;
      if (status_severity(doc::CollectiveStatus::kError) > status_severity(m.status))
        m.status = doc::CollectiveStatus::kError;
      details.push_back(why_missing(r, log_of(logs, r), exit_of(exits, r)));
      continue;
    }
    const RankCaseLine& c = *it->second;
    if (status_severity(c.status) > status_severity(m.status)) m.status = c.status;
    if (!c.detail.empty()) details.push_back("rank " + std::to_string(r) + ": " + c.detail);
    if (c.wrong_elements) m.wrong_elements = m.wrong_elements.value_or(0) + *c.wrong_elements;
    if (c.sample_us.empty()) all_timed = false;
    if (m.sample_us.size() < c.sample_us.size()) m.sample_us.resize(c.sample_us.size(), 0.0);
    for (std::size_t s = 0; s < c.sample_us.size(); ++s)
      m.sample_us[s] = std::max(m.sample_us[s], c.sample_us[s]);
  }
  if (all_timed && !m.sample_us.empty() &&
      (m.status == doc::CollectiveStatus::kOk || m.status == doc::CollectiveStatus::kWrong)) {
    m.time_us = median(m.sample_us);
  } else {
    m.sample_us.clear();
  }
  for (const auto& d : details) m.detail += (m.detail.empty() ? "" : "; ") + d;
  return m;
}

// How each rank process ended, with a warning for each that died, hung, failed or left
// unreadable lines; ends sorted by rank.
void add_process_ends(MergedRun& out, const std::vector<RankLog>& logs,
                      const std::vector<RankExit>& exits) {
  for (const auto& e : exits) {
    static const RankLog kEmpty;
    const RankLog* lp = log_of(logs, e.rank);
    const RankLog& l = lp != nullptr ? *lp : kEmpty;
    doc::RankProcessEnd end;
    end.rank = e.rank;
    end.pid = e.pid;
    end.ended = ended_of(e, l);
    end.exit_code = e.exit_code;
    end.signal = e.signal;
    end.last_case = last_case_of(l);
    end.detail = l.end && !e.no_result ? l.end->detail : describe_exit(e, l);
    const std::string last =
        end.last_case.empty() ? "no case completed" : "last completed case " + end.last_case;
    if (end.ended == doc::RankEnd::kDied || end.ended == doc::RankEnd::kKilled ||
        end.ended == doc::RankEnd::kNoResult) {
      out.warnings.push_back(rank_label(e) + " " + describe_exit(e, l) + "; " + last);
    } else if (end.ended == doc::RankEnd::kHang || end.ended == doc::RankEnd::kError) {
      out.warnings.push_back(rank_label(e) + " stopped its sweep (" + doc::to_string(end.ended) +
                             "): " + end.detail + "; " + last);
    }
    if (l.unreadable_lines > 0) {
      out.warnings.push_back(
          "rank " + std::to_string(e.rank) + ": " + std::to_string(l.unreadable_lines) +
          " unreadable line(s) in its results (cut short when the process ended), ignored");
    }
    out.ends.push_back(std::move(end));
  }
  std::sort(
      out.ends.begin(), out.ends.end(),
      [](const doc::RankProcessEnd& a, const doc::RankProcessEnd& b) { return a.rank < b.rank; });
}

// One warning naming every rank that aborted because another rank process ended.
void add_stopped_warning(MergedRun& out) {
  std::string stopped;
  for (const auto& end : out.ends) {
    if (end.ended == doc::RankEnd::kStopped)
      stopped += (stopped.empty() ? "" : ", ") + std::to_string(end.rank);
  }
  if (!stopped.empty()) {
    out.warnings.push_back(
        "rank(s) " + stopped +
        " aborted their communicators when another rank process ended (nothing left to measure with)");
  }
}

}  // namespace

MergedRun merge_rank_logs(const std::vector<MergeCase>& plan, const std::vector<RankLog>& logs,
                          const std::vector<RankExit>& exits) {
  MergedRun out;
  // case name -> rank -> line
  std::map<std::string, std::map<int, const RankCaseLine*>> reported;
  for (const auto& l : logs) {
    for (const auto& c : l.cases) reported[c.case_name][l.rank] = &c;
    if (l.ready && !out.buffer_allocator) out.buffer_allocator = l.ready->buffer_allocator;
  }
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const auto found = reported.find(plan[i].name);
    if (found == reported.end()) continue;  // never reached: not invented
    out.cases.push_back(merge_case(static_cast<int>(i), plan[i], found->second, logs, exits));
  }
  add_process_ends(out, logs, exits);
  add_stopped_warning(out);
  return out;
}

std::vector<MergedCase> cases_every_rank_finished(const std::vector<MergeCase>& plan,
                                                  const std::vector<RankLog>& logs,
                                                  const std::vector<MergedCase>& merged) {
  std::vector<MergedCase> out;
  for (const MergedCase& m : merged) {
    const MergeCase& c = plan.at(static_cast<std::size_t>(m.index));
    const bool all = std::all_of(c.participants.begin(), c.participants.end(), [&](int r) {
      const RankLog* l = log_of(logs, r);
      return l != nullptr &&
             std::any_of(l->cases.begin(), l->cases.end(),
                         [&](const RankCaseLine& line) { return line.case_name == c.name; });
    });
    if (all) out.push_back(m);
  }
  return out;
}

}  // namespace p2p::nccl
