#include "document/outcome.hpp"

#include <algorithm>

#include "document/enum_names.hpp"

namespace p2p::doc {
namespace {

constexpr EnumNames<Outcome, 6> kOutcomes{{{Outcome::kPass, "pass"},
                                           {Outcome::kWarn, "warn"},
                                           {Outcome::kFail, "fail"},
                                           {Outcome::kError, "error"},
                                           {Outcome::kSkipped, "skipped"},
                                           {Outcome::kNotMeaningful, "not_meaningful"}}};

constexpr EnumNames<FigureStatus, 4> kFigureStatuses{{{FigureStatus::kOk, "ok"},
                                                      {FigureStatus::kWaived, "waived"},
                                                      {FigureStatus::kFailed, "failed"},
                                                      {FigureStatus::kError, "error"}}};

constexpr EnumNames<CollectiveStatus, 4> kCollectiveStatuses{{{CollectiveStatus::kOk, "ok"},
                                                              {CollectiveStatus::kWrong, "wrong"},
                                                              {CollectiveStatus::kHang, "hang"},
                                                              {CollectiveStatus::kError, "error"}}};

constexpr EnumNames<RankEnd, 7> kRankEnds{{{RankEnd::kDone, "done"},
                                           {RankEnd::kHang, "hang"},
                                           {RankEnd::kError, "error"},
                                           {RankEnd::kDied, "died"},
                                           {RankEnd::kKilled, "killed"},
                                           {RankEnd::kNoResult, "no_result"},
                                           {RankEnd::kStopped, "stopped"}}};

constexpr EnumNames<Change, 8> kChanges{{{Change::kRegressed, "regressed"},
                                         {Change::kImproved, "improved"},
                                         {Change::kSame, "same"},
                                         {Change::kLost, "lost"},
                                         {Change::kNew, "new"},
                                         {Change::kMissing, "missing"},
                                         {Change::kNotJudged, "not_judged"},
                                         {Change::kOneSideOnly, "one_side_only"}}};

constexpr EnumNames<ThresholdStatus, 3> kThresholdStatuses{
    {{ThresholdStatus::kPass, "pass"},
     {ThresholdStatus::kFail, "fail"},
     {ThresholdStatus::kNotJudged, "not_judged"}}};

constexpr EnumNames<MessageStatus, 5> kMessageStatuses{{{MessageStatus::kOk, "ok"},
                                                        {MessageStatus::kWrong, "wrong"},
                                                        {MessageStatus::kHang, "hang"},
                                                        {MessageStatus::kError, "error"},
                                                        {MessageStatus::kNotRun, "not_run"}}};

constexpr EnumNames<IpcStatus, 3> kIpcStatuses{
    {{IpcStatus::kOk, "ok"}, {IpcStatus::kFail, "fail"}, {IpcStatus::kNotRun, "not_run"}}};

constexpr EnumNames<HostStatus, 3> kHostStatuses{{{HostStatus::kPass, "pass"},
                                                  {HostStatus::kFail, "fail"},
                                                  {HostStatus::kNoResult, "no_result"}}};

constexpr EnumNames<TopologyMatch, 3> kTopologyMatches{{{TopologyMatch::kSame, "same"},
                                                        {TopologyMatch::kDiffers, "differs"},
                                                        {TopologyMatch::kUnknown, "unknown"}}};

// Every word is one token joined by underscores. RankEnd and Change once wrote three with spaces
// ("no result", "not judged", "one side only"): documents holding those still read.
template <class E, std::size_t N>
E parse_once_spaced(const EnumNames<E, N>& names, const nlohmann::json& j,
                    const std::string& what) {
  if (j.is_string()) {
    std::string word = j.get<std::string>();
    std::replace(word.begin(), word.end(), ' ', '_');
    if (const auto e = find_in(names, word)) return *e;
  }
  return parse_json_in(names, j, what);
}

}  // namespace

const char* to_string(Outcome o) { return name_in(kOutcomes, o); }
Outcome outcome_from_string(const std::string& word, const std::string& what) {
  return parse_in(kOutcomes, word, what);
}

int severity(Outcome o) {
  switch (o) {
    case Outcome::kPass: return 0;
    case Outcome::kNotMeaningful: return 1;
    case Outcome::kSkipped: return 2;
    case Outcome::kWarn: return 3;
    case Outcome::kError: return 4;
    case Outcome::kFail: return 5;
  }
  return 5;
}

Outcome worst(Outcome a, Outcome b) { return severity(b) > severity(a) ? b : a; }

bool passes(Outcome o) { return o != Outcome::kFail && o != Outcome::kError; }

const char* to_string(FigureStatus s) { return name_in(kFigureStatuses, s); }
Outcome outcome_of(FigureStatus s) {
  switch (s) {
    case FigureStatus::kOk: return Outcome::kPass;
    case FigureStatus::kWaived: return Outcome::kSkipped;
    case FigureStatus::kFailed: return Outcome::kFail;
    case FigureStatus::kError: return Outcome::kError;
  }
  return Outcome::kError;
}

const char* to_string(CollectiveStatus s) { return name_in(kCollectiveStatuses, s); }
Outcome outcome_of(CollectiveStatus s) {
  switch (s) {
    case CollectiveStatus::kOk: return Outcome::kPass;
    case CollectiveStatus::kWrong:
    case CollectiveStatus::kHang: return Outcome::kFail;
    case CollectiveStatus::kError: return Outcome::kError;
  }
  return Outcome::kError;
}

FigureStatus figure_status_of(CollectiveStatus s) {
  switch (s) {
    case CollectiveStatus::kOk: return FigureStatus::kOk;
    case CollectiveStatus::kWrong:
    case CollectiveStatus::kHang: return FigureStatus::kFailed;
    case CollectiveStatus::kError: return FigureStatus::kError;
  }
  return FigureStatus::kError;
}

const char* to_string(RankEnd e) { return name_in(kRankEnds, e); }
Outcome outcome_of(RankEnd e) {
  if (e == RankEnd::kDone) return Outcome::kPass;
  return e == RankEnd::kError ? Outcome::kError : Outcome::kFail;
}

const char* to_string(Change c) { return name_in(kChanges, c); }

std::string in_words(Change c) {
  std::string words = to_string(c);
  std::replace(words.begin(), words.end(), '_', ' ');
  return words;
}

Outcome outcome_of(Change c, bool missing_allowed) {
  switch (c) {
    case Change::kRegressed:
    case Change::kLost: return Outcome::kFail;
    case Change::kMissing: return missing_allowed ? Outcome::kSkipped : Outcome::kFail;
    case Change::kNotJudged:
    case Change::kOneSideOnly: return Outcome::kSkipped;
    case Change::kImproved:
    case Change::kSame:
    case Change::kNew: return Outcome::kPass;
  }
  return Outcome::kFail;
}

const char* to_string(ThresholdStatus s) { return name_in(kThresholdStatuses, s); }
Outcome outcome_of(ThresholdStatus s) {
  switch (s) {
    case ThresholdStatus::kPass: return Outcome::kPass;
    case ThresholdStatus::kFail: return Outcome::kFail;
    case ThresholdStatus::kNotJudged: return Outcome::kSkipped;
  }
  return Outcome::kSkipped;
}

const char* to_string(MessageStatus s) { return name_in(kMessageStatuses, s); }
Outcome outcome_of(MessageStatus s) {
  switch (s) {
    case MessageStatus::kOk: return Outcome::kPass;
    case MessageStatus::kWrong:
    case MessageStatus::kHang: return Outcome::kFail;
    case MessageStatus::kError:
    case MessageStatus::kNotRun: return Outcome::kError;
  }
  return Outcome::kError;
}
MessageStatus message_status_of(CollectiveStatus s) {
  switch (s) {
    case CollectiveStatus::kOk: return MessageStatus::kOk;
    case CollectiveStatus::kWrong: return MessageStatus::kWrong;
    case CollectiveStatus::kHang: return MessageStatus::kHang;
    case CollectiveStatus::kError: return MessageStatus::kError;
  }
  return MessageStatus::kError;
}

const char* to_string(IpcStatus s) { return name_in(kIpcStatuses, s); }
Outcome outcome_of(IpcStatus s) {
  switch (s) {
    case IpcStatus::kOk: return Outcome::kPass;
    case IpcStatus::kFail: return Outcome::kFail;
    case IpcStatus::kNotRun: return Outcome::kError;
  }
  return Outcome::kError;
}

const char* to_string(HostStatus s) { return name_in(kHostStatuses, s); }
Outcome outcome_of(HostStatus s) {
  switch (s) {
    case HostStatus::kPass: return Outcome::kPass;
    case HostStatus::kFail: return Outcome::kFail;
    case HostStatus::kNoResult: return Outcome::kError;
  }
  return Outcome::kError;
}

const char* to_string(TopologyMatch m) { return name_in(kTopologyMatches, m); }

void to_json(nlohmann::json& j, Outcome o) { j = to_string(o); }
void from_json(const nlohmann::json& j, Outcome& o) { o = parse_json_in(kOutcomes, j, "outcome"); }
void to_json(nlohmann::json& j, FigureStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, FigureStatus& s) {
  s = parse_json_in(kFigureStatuses, j, "status");
}
void to_json(nlohmann::json& j, CollectiveStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, CollectiveStatus& s) {
  s = parse_json_in(kCollectiveStatuses, j, "status");
}
void to_json(nlohmann::json& j, RankEnd e) { j = to_string(e); }
void from_json(const nlohmann::json& j, RankEnd& e) {
  e = parse_once_spaced(kRankEnds, j, "ended");
}
void to_json(nlohmann::json& j, Change c) { j = to_string(c); }
void from_json(const nlohmann::json& j, Change& c) {
  c = parse_once_spaced(kChanges, j, "verdict");
}
void to_json(nlohmann::json& j, ThresholdStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, ThresholdStatus& s) {
  s = parse_json_in(kThresholdStatuses, j, "status");
}

void to_json(nlohmann::json& j, MessageStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, MessageStatus& s) {
  s = parse_json_in(kMessageStatuses, j, "status");
}
void to_json(nlohmann::json& j, IpcStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, IpcStatus& s) {
  s = parse_json_in(kIpcStatuses, j, "status");
}
void to_json(nlohmann::json& j, HostStatus s) { j = to_string(s); }
void from_json(const nlohmann::json& j, HostStatus& s) {
  s = parse_json_in(kHostStatuses, j, "status");
}
void to_json(nlohmann::json& j, TopologyMatch m) { j = to_string(m); }
void from_json(const nlohmann::json& j, TopologyMatch& m) {
  m = parse_json_in(kTopologyMatches, j, "match");
}

}  // namespace p2p::doc
