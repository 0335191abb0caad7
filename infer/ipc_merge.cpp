#include "infer/ipc_merge.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/file_io.hpp"
#include "common/json_text.hpp"

namespace p2p::infer {

std::string to_line(const IpcLine& l) {
  const nlohmann::json j = {{"kind", "ipc"},    {"side", l.side},     {"writer", l.writer},
                            {"owner", l.owner}, {"status", l.status}, {"detail", l.detail}};
  return json_text(j, -1) + "\n";
}

std::vector<IpcLine> parse_ipc_lines(const std::string& text) {
  std::vector<IpcLine> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    try {
      const nlohmann::json j = parse_own_json(line, "IPC line");
      if (!j.is_object() || j.value("kind", "") != "ipc") continue;
      IpcLine l;
      l.side = j.at("side").get<std::string>();
      l.writer = j.at("writer").get<int>();
      l.owner = j.at("owner").get<int>();
      l.status = j.at("status").get<doc::IpcStatus>();
      l.detail = j.at("detail").get<std::string>();
      out.push_back(l);
    } catch (const std::exception&) {  // parse_own_json's runtime_error, or a key missing
      // a line cut short by a killed process, or another kind: rank_merge counts those
    }
  }
  return out;
}

unsigned char ipc_pattern(int writer, int owner) {
  return static_cast<unsigned char>(1 + ((writer * 16 + owner) % 255));
}

std::vector<IpcPairResult> merge_ipc(const std::vector<int>& gpus,
                                     const std::vector<IpcLine>& lines) {
  const int n = static_cast<int>(gpus.size());
  std::vector<IpcPairResult> out;
  for (int w = 0; w < n; ++w) {
    for (int o = 0; o < n; ++o) {
      if (w == o) continue;
      IpcPairResult r;
      r.writer_rank = w;
      r.owner_rank = o;
      r.writer_gpu = gpus[static_cast<std::size_t>(w)];
      r.owner_gpu = gpus[static_cast<std::size_t>(o)];
      const IpcLine* wrote = nullptr;
      const IpcLine* read = nullptr;
      for (const IpcLine& l : lines) {
        if (l.writer != w || l.owner != o) continue;
        if (l.side == "write") wrote = &l;
        if (l.side == "read") read = &l;
      }
      if (wrote != nullptr && wrote->status != doc::IpcStatus::kOk) {
        r.status = doc::IpcStatus::kFail;
        r.detail = "rank " + std::to_string(w) + " could not write: " + wrote->detail;
      } else if (read != nullptr) {
        r.status =
            read->status == doc::IpcStatus::kOk ? doc::IpcStatus::kOk : doc::IpcStatus::kFail;
        if (read->status != doc::IpcStatus::kOk)
          r.detail = "rank " + std::to_string(o) + " read back: " + read->detail;
      } else {
        r.status = doc::IpcStatus::kNotRun;
        r.detail = wrote == nullptr
                       ? "neither rank reported this pair (the check did not run to it)"
                       : "the owner, rank " + std::to_string(o) + ", never reported its read";
      }
      out.push_back(r);
    }
  }
  return out;
}

bool all_ipc_ok(const std::vector<IpcPairResult>& pairs) {
  for (const auto& p : pairs) {
    if (p.status != doc::IpcStatus::kOk) return false;
  }
  return true;
}

}  // namespace p2p::infer
