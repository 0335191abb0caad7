// NVIDIA's documented tables as data: the CUDA driver API's return codes, NVML's return codes and
// device states, the container toolkit's environment, security modules' denials and NCCL's
// environment variables (the Xid catalog, xid_catalog.hpp, and the driver branches per GPU,
// driver_tables.hpp, came first and follow the same idea). Each row is a documented code or state,
// its meaning in p2pcheck's words, the causes it can have, the facts (fact_view.hpp) that confirm
// or rule out each cause, and the fix. The rows live in documented_*.cpp, one table per file, each
// naming its source; documented_causes.cpp turns the rows that match a host into ranked causes.
#pragma once

#include <string>
#include <vector>

#include "doctor/fact_view.hpp"
#include "doctor/finding.hpp"

namespace p2p::doctor {

enum class FactOp {
  kIs,     // a value equals the text
  kIsNot,  // a value is known and differs from the text
  kHas,    // a value contains the text
  kLacks,  // the fact is known and no value contains the text
  kSet,    // the fact has a value
  kUnset,  // the fact is known and has no value (a variable not set, no such log line)
};

struct FactTest {
  const char* fact = "";  // a name of fact_view.hpp ("cuda.init", "env.NCCL_P2P_DISABLE")
  FactOp op = FactOp::kIs;
  const char* text = "";
};

struct DocumentedCause {
  const char* id = "";     // the verdict's cause id ("compute_mode"): shared with the rule families
  const char* title = "";  // "GPU compute mode forbids this process"
  std::vector<FactTest> confirm;   // any of them holding confirms the cause
  std::vector<FactTest> rule_out;  // any of them holding rules it out
  const char* fix = "";
};

struct DocumentedRow {
  FactTest when;                        // the code or state ("cuda.init" is "CUDA_ERROR_NO_DEVICE")
  Status severity = Status::kFail;      // what the row means for the host: fail or warn
  const char* meaning = "";             // NVIDIA's meaning, in our words
  std::vector<DocumentedCause> causes;  // the documented causes, the likelier first
  // The row's match is the driver stating its cause in its own words: its one cause is confirmed
  // with the weight of the driver's word, above any reading of symptoms.
  bool driver_states_cause = false;
};

struct DocumentedTable {
  const char* id = "";  // "cuda_driver_api": the finding is "known.<id>"
  const char* title = "";
  const char* source = "";   // where NVIDIA (or the platform) documents it
  bool blocks_cuda = false;  // a failing row of it means CUDA cannot work
  std::vector<DocumentedRow> rows;
};

// Every table, in the order the doctor reports them.
const std::vector<DocumentedTable>& documented_tables();

// The tables, one per file (documented_*.cpp).
DocumentedTable cuda_driver_api_table();
DocumentedTable nvml_table();
DocumentedTable gpu_state_table();
DocumentedTable container_toolkit_table();
DocumentedTable security_module_table();
DocumentedTable nccl_environment_table();
DocumentedTable driver_message_table();

// Shared by the tables whose codes a security module's denial can explain.
DocumentedCause security_module_cause();

// The values of `view` the test matches (for kLacks: none, and holds() says whether it held).
std::vector<FactValue> matching_values(const FactView& view, const FactTest& t);
bool holds(const FactView& view, const FactTest& t);
// "cuInit is CUDA_ERROR_NO_DEVICE", "env.NCCL_P2P_DISABLE is not 0": for evidence lines.
std::string describe(const FactTest& t);

}  // namespace p2p::doctor
