// Ranks as processes: what each rank process writes as it goes (one JSON line per finished
// case, appended and flushed at once, so a killed run keeps everything measured before) and
// how the parent merges those lines into one result per case. Pure, so the CPU tests check the
// merge from hand-written lines.
//
// A rank's file holds, in order: a "ready" line (the communicator formed), "progress" lines
// (warm-up, a sign of life for the parent's deadline), one "case" line per case it took part
// in, and an "end" line when it stopped by itself (done, or hang/error: a rank cannot form a
// new communicator without the others, so the first hang or failed call ends its sweep).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "document/nccl_run.hpp"

namespace p2p::nccl {

struct RankCaseLine {
  std::string case_name;  // benchmark_name(case)
  int index = 0;          // position in the plan
  int rank = 0;
  doc::CollectiveStatus status = doc::CollectiveStatus::kOk;
  std::string detail;
  std::vector<double> sample_us;  // per-operation time of each timed group, on this rank's streams
  std::optional<std::uint64_t> wrong_elements;  // counted on this rank's GPU; null = not verified
};

struct RankReadyLine {
  int rank = 0;
  int pid = 0;
  std::string buffer_allocator;
};

struct RankEndLine {
  int rank = 0;
  // done | hang | error | stopped (aborted on the parent's SIGTERM after another rank ended)
  doc::RankEnd end = doc::RankEnd::kDone;
  std::string detail;
};

// Each a single line of JSON with its trailing newline.
std::string to_line(const RankReadyLine& l);
std::string to_line(const RankCaseLine& l);
std::string to_line(const RankEndLine& l);
std::string progress_line(int rank, const std::string& what);

// Everything one rank's file says. A line that is not a complete JSON record (the last line of
// a process killed while writing it) is skipped and counted.
struct RankLog {
  int rank = 0;
  std::optional<RankReadyLine> ready;
  std::vector<RankCaseLine> cases;
  std::optional<RankEndLine> end;
  int unreadable_lines = 0;
};
RankLog parse_rank_log(int rank, const std::string& text);

// One line of a rank's file added to its log (an unreadable line is counted).
void add_rank_line(RankLog& log, const std::string& line);

// One rank's file read as it grows: each read() takes only the bytes written since the last and
// parses only the lines they complete, so watching a long sweep costs what it adds, not what it
// holds (re-reading every file on each piece of news was quadratic in its lines). A line still
// being written waits for its newline; read(true) takes it as it is, as parse_rank_log does
// with the last line of a killed process. A missing file is an empty log.
class RankLogReader {
 public:
  RankLogReader(int rank, std::string path);
  const RankLog& read(bool final = false);

 private:
  std::string path_;
  RankLog log_;
  std::uint64_t offset_ = 0;
  std::string partial_;  // the bytes after the last newline read so far
};

// How a rank process ended, as waitpid said, plus what the parent did to it.
struct RankExit {
  int rank = 0;
  int pid = 0;
  std::optional<int> exit_code;  // exited normally
  std::optional<int> signal;     // killed by this signal
  bool killed_by_parent = false;
  std::string why_killed;  // when killed_by_parent, or why there is no result
  // MPI: the process sent rank 0 nothing within the deadline (dead, or stuck), so how it ended
  // is unknown; its lines are those it streamed before.
  bool no_result = false;
};

// One planned case as the merge needs it: its name and the ranks that take part.
struct MergeCase {
  std::string name;
  std::vector<int> participants;
};

struct MergedCase {
  int index = 0;  // position in the plan
  doc::CollectiveStatus status = doc::CollectiveStatus::kOk;
  std::string detail;
  std::vector<double> sample_us;                // per sample, the slowest participating rank
  std::optional<double> time_us;                // median of sample_us
  std::optional<std::uint64_t> wrong_elements;  // summed over the participating ranks
};

struct MergedRun {
  std::vector<MergedCase> cases;          // plan order; only cases at least one rank reported
  std::vector<doc::RankProcessEnd> ends;  // by rank
  std::vector<std::string> warnings;
  std::optional<std::string> buffer_allocator;  // as the ranks reported it
};

// hang > error > wrong > ok.
int status_severity(doc::CollectiveStatus status);

// Per case: each sample's time is the slowest participating rank's, the time the median of
// those; wrong elements are summed; the status is the worst. A participating rank without a
// line for a case another rank reported makes it "error" naming that rank and how it ended.
// Times are kept only when every participating rank reported them.
// `logs` and `exits` are by rank (index r for rank r).
MergedRun merge_rank_logs(const std::vector<MergeCase>& plan, const std::vector<RankLog>& logs,
                          const std::vector<RankExit>& exits);

// The merged cases that every participating rank reported a line for (a stopped run drops
// the case in progress, which some ranks had not finished).
std::vector<MergedCase> cases_every_rank_finished(const std::vector<MergeCase>& plan,
                                                  const std::vector<RankLog>& logs,
                                                  const std::vector<MergedCase>& merged);

// "killed by signal 9", "exited with code 4 without its final line", "killed by p2pcheck: ...",
// "sent no result (...)".
std::string describe_exit(const RankExit& e, const RankLog& log);

}  // namespace p2p::nccl
