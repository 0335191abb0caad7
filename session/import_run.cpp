#include "session/import_run.hpp"

#include "bench/sizes.hpp"
#include "common/file_io.hpp"
#include "common/json_text.hpp"
#include "common/utc_time.hpp"
#include "import/import_document.hpp"

namespace p2p::session {

ImportOutcome run_import(const ImportRequest& r) {
  import::ImportOptions options;
  if (!r.buffer_size.empty())
    options.nvbandwidth_buffer_bytes = bench::parse_size_bytes(r.buffer_size, "--buffer-size");
  options.p2p_sample_copy_bytes = r.num_elems * 4;
  options.collective = r.collective;
  options.tool = r.tool;
  const std::string started = utc_now_iso8601();
  ImportOutcome o;
  for (const auto& f : r.files) {
    o.files.push_back(import::import_paste(read_text_file(f), f, options));
    const auto& sections = o.files.back().sections;
    o.parts.insert(o.parts.end(), sections.begin(), sections.end());
  }
  o.document = import::import_document(o.parts, options, started);
  if (!r.json.empty())
    write_text_file_atomically(r.json, json_text(nlohmann::json(o.document)) + "\n");
  return o;
}

}  // namespace p2p::session
