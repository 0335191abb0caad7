#include "report/nccl_matrix.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/byte_size.hpp"
#include "document/figure_key.hpp"

namespace p2p::report {
namespace {

MatrixCell cell_of(const doc::CollectiveResult& r, const std::string& section) {
  MatrixCell c;
  c.value = r.nranks <= 1 ? r.algbw_gbps : r.busbw_gbps;
  c.status = doc::figure_status_of(r.status);
  c.key = doc::figure_key(r, section);
  return c;
}

// Rows: the collectives in the order first measured; columns: sizes from kNcclMatrixMinBytes.
Matrix collective_matrix(const std::vector<const doc::CollectiveResult*>& results,
                         const std::string& title, const std::string& section) {
  Matrix m;
  m.title = title;
  std::set<std::uint64_t> sizes;
  for (const auto* r : results) {
    if (std::find(m.rows.begin(), m.rows.end(), r->collective) == m.rows.end())
      m.rows.push_back(r->collective);
    sizes.insert(r->size_bytes);
  }
  for (auto s : sizes) m.cols.push_back(format_bytes(s, ByteStyle::kCompact));
  m.cells.assign(m.rows.size(), std::vector<std::optional<MatrixCell>>(m.cols.size()));
  for (const auto* r : results) {
    const auto i = std::find(m.rows.begin(), m.rows.end(), r->collective) - m.rows.begin();
    const auto j = std::distance(sizes.begin(), sizes.find(r->size_bytes));
    m.cells[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = cell_of(*r, section);
  }
  m.notes.push_back("row = collective, column = message size; busbw, GB/s");
  return m;
}

// The sendrecv pairs at their largest size: row = sending rank, column = receiving rank.
Matrix pair_matrix(const std::vector<const doc::CollectiveResult*>& results,
                   const std::string& title, const std::string& section) {
  Matrix m;
  m.title = title;
  const int n = results.front()->nranks;
  for (int r = 0; r < n; ++r) {
    m.rows.push_back("rank" + std::to_string(r));
    m.cols.push_back("rank" + std::to_string(r));
  }
  m.cells.assign(m.rows.size(), std::vector<std::optional<MatrixCell>>(m.cols.size()));
  for (const auto* r : results) {
    const int s = r->src_rank.value_or(-1), d = r->dst_rank.value_or(-1);
    if (s < 0 || d < 0 || s >= n || d >= n) continue;
    m.cells[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)] = cell_of(*r, section);
  }
  m.notes.push_back("row = sending rank, column = receiving rank; busbw, GB/s");
  return m;
}

}  // namespace

std::vector<Matrix> nccl_matrices(const doc::NcclRun& run, const std::string& section) {
  using Group = std::tuple<std::string, bool, int>;  // dtype, in place, ranks
  std::map<Group, std::vector<const doc::CollectiveResult*>> collectives;
  std::map<Group, std::vector<const doc::CollectiveResult*>> pairs;
  std::map<Group, std::uint64_t> largest_pair;
  for (const auto& r : run.results) {
    const Group g{r.dtype, r.in_place, r.nranks};
    if (r.src_rank && r.dst_rank) {
      largest_pair[g] = std::max(largest_pair[g], r.size_bytes);
      pairs[g].push_back(&r);
    } else if (r.size_bytes >= kNcclMatrixMinBytes) {
      collectives[g].push_back(&r);
    }
  }
  std::vector<Matrix> out;
  const std::string head =
      section.empty() ? "NCCL" : "NCCL " + section.substr(0, section.size() - 1);
  for (const auto& [g, results] : collectives) {
    const auto& [dtype, in_place, nranks] = g;
    out.push_back(collective_matrix(results,
                                    head + " busbw, " + dtype + " " +
                                        doc::placement_word(in_place) + ", " +
                                        std::to_string(nranks) + " ranks",
                                    section));
  }
  for (auto& [g, results] : pairs) {
    const auto& [dtype, in_place, nranks] = g;
    const std::uint64_t size = largest_pair[g];
    results.erase(std::remove_if(results.begin(), results.end(),
                                 [&](const auto* r) { return r->size_bytes != size; }),
                  results.end());
    out.push_back(pair_matrix(
        results,
        head + " sendrecv pairs busbw, " + dtype + " " + doc::placement_word(in_place) + ", " +
            format_bytes(size, ByteStyle::kCompact) + ", " + std::to_string(nranks) + " ranks",
        section));
  }
  return out;
}

}  // namespace p2p::report
