// A file of pasted text into sections: normalised (import/paste_text.hpp), its tables found and
// grouped by tool (import/paste_sections.hpp), each group read by its tool's reader.
#include "common/error.hpp"
#include "common/text_lines.hpp"
#include "import/import_document.hpp"
#include "import/limits.hpp"
#include "import/nccl_tests.hpp"
#include "import/nvbandwidth.hpp"
#include "import/p2p_bandwidth_latency.hpp"
#include "import/paste_sections.hpp"
#include "import/paste_text.hpp"
#include "import/simple_p2p.hpp"
#include "import/topo_fragment.hpp"

namespace p2p::import {

namespace {

// -j / -J output: one JSON document, read whole.
ImportedFigures json_section(const std::string& text, const std::string& file,
                             const ImportOptions& o) {
  if (looks_like_nvbandwidth(text))
    return nvbandwidth_figures(parse_nvbandwidth(text, file), file, o.nvbandwidth_buffer_bytes);
  if (looks_like_nccl_tests(text))
    return nccl_tests_figures(parse_nccl_tests(text, file, o.collective), file);
  throw InputError(file +
                   ": a JSON document that is neither nvbandwidth -j nor nccl-tests -J output");
}

ImportedFigures read_section(const std::string& tool, const std::string& text,
                             const std::string& file, const ImportOptions& o) {
  if (tool == "nvbandwidth")
    return nvbandwidth_figures(parse_nvbandwidth(text, file), file, o.nvbandwidth_buffer_bytes);
  if (tool == "nccl-tests")
    return nccl_tests_figures(parse_nccl_tests(text, file, o.collective), file);
  if (tool == "p2pBandwidthLatencyTest")
    return p2p_bandwidth_latency_figures(parse_p2p_bandwidth_latency(text, file), file,
                                         o.p2p_sample_copy_bytes);
  if (tool == "simpleP2P") return simple_p2p_figures(parse_simple_p2p(text, file), file);
  return topo_fragment_figures(text, file);
}

// A reader's "<file>: ..." as "<file> (lines a-b): ..." when the file holds more than its table.
InputError with_lines(const InputError& e, const std::string& file, int first, int last) {
  std::string m = e.what();
  if (m.rfind(file + ": ", 0) == 0)
    m.insert(file.size(), " (lines " + std::to_string(first) + "-" + std::to_string(last) + ")");
  return InputError(m);
}

// The one line for a file without a table: what was looked for, and the tools whose output
// begins there without reaching one.
InputError no_table(const std::string& file, const std::vector<std::string>& lines,
                    const ImportOptions& o) {
  std::string announced;
  for (const auto& tool : tools_announced(lines))
    announced += (announced.empty() ? "" : ", ") + tool;
  return InputError(file + ": no table found" +
                    (o.tool.empty() ? "" : " of " + o.tool + " output (--tool)") +
                    (announced.empty() ? ""
                                       : " (" + announced +
                                             " output starts, but no result table follows: "
                                             "cut before it, or the test printed none)") +
                    ": looked for " + tables_looked_for());
}

}  // namespace

ImportedPaste import_paste(const std::string& text, const std::string& file,
                           const ImportOptions& options) {
  ImportedPaste out;
  require_lines_within_ceiling(text, file);
  if (starts_json_object(text)) {
    out.sections.push_back(json_section(without_bom(text), file, options));
    return out;
  }
  const NormalisedPaste paste = normalise_paste(text);
  out.stripped = paste.stripped;
  std::vector<std::string> lines;
  for (const auto& l : paste.lines) lines.push_back(l.text);
  const auto sections = find_sections(lines, options.tool);
  if (sections.empty()) {
    // -j / -J output pasted in a fence or quoted: the JSON once the wrappers are gone.
    const std::string unwrapped = paste_text(paste, 0, paste.lines.size());
    if (starts_json_object(unwrapped)) {
      out.sections.push_back(json_section(unwrapped, file, options));
      return out;
    }
    throw no_table(file, lines, options);
  }
  for (const auto& s : sections) {
    const int first = paste.lines[s.begin].line, last = paste.lines[s.end - 1].line;
    try {
      ImportedFigures f = read_section(s.tool, paste_text(paste, s.begin, s.end), file, options);
      f.first_line = first;
      f.last_line = last;
      if (!options.tool.empty())
        f.file.notes.push_back("assumed: its tables are " + options.tool + " output (--tool)");
      out.sections.push_back(std::move(f));
    } catch (const InputError& e) {
      if (sections.size() == 1 && first == 1) throw;
      throw with_lines(e, file, first, last);
    }
  }
  return out;
}

}  // namespace p2p::import
