// The documented tables (documented_table.hpp) applied to a host: which rows its facts match, one
// finding per table with matches ("known.cuda_driver_api"), and the causes those rows name, each
// confirmed, ruled out or left possible by the facts the row lists for it. Pure.
#pragma once

#include <string>
#include <vector>

#include "doctor/facts.hpp"
#include "doctor/finding.hpp"
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

struct RowHit {
  const DocumentedTable* table = nullptr;
  const DocumentedRow* row = nullptr;
  std::vector<FactValue> values;  // the values that matched the row's code or state
};

std::vector<RowHit> row_hits(const FactView& view);

// "known.<table>" findings: the row's meaning and the causes it leaves standing.
std::vector<Finding> documented_findings(const Facts& f);

// Adds the causes of the matching rows to `out`; a cause a rule family already named keeps its
// place and gains the row's evidence and GPUs.
void documented_causes(const Facts& f, std::vector<Cause>& out);

// "compute mode ruled out: gpu.compute_mode is Default": causes of matching rows that the facts
// exclude.
std::vector<std::string> documented_ruled_out(const Facts& f);

// Whether a failing "known.<table>" finding means CUDA cannot work.
bool documented_finding_blocks_cuda(const std::string& finding_id);

}  // namespace p2p::doctor
