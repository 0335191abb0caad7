// NCCL's environment variables that turn a transport off or restrict it. A host with one of them
// set passes or fails an NCCL test for reasons that are not the host's: the doctor says so, and
// the acceptance run refuses to measure P2P under them unless told (--allow-env).
#include "doctor/knowledge/documented_table.hpp"

namespace p2p::doctor {

namespace {

using Op = FactOp;

// `fix` names the variable: the reader acts on it, not on "it".
DocumentedCause p2p_off_cause(const char* title, const char* fix) {
  return {"nccl_p2p_disabled", title, {}, {}, fix};
}

DocumentedCause transport_cause(const char* title, const char* fix) {
  return {"nccl_env", title, {}, {}, fix};
}

}  // namespace

DocumentedTable nccl_environment_table() {
  return {
      "nccl_environment",
      "NCCL environment",
      "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html",
      false,
      {
          {{"env.NCCL_P2P_DISABLE", Op::kIsNot, "0"},
           Status::kWarn,
           "NCCL uses no P2P (NVLink or PCIe) between GPUs: their traffic goes through host memory",
           {p2p_off_cause("NCCL_P2P_DISABLE turns NCCL's P2P transport off",
                          "unset NCCL_P2P_DISABLE (it belongs in a workaround for a broken P2P "
                          "path, which p2pcheck names); an acceptance run refuses it unless "
                          "--allow-env NCCL_P2P_DISABLE")}},
          {{"env.NCCL_P2P_LEVEL", Op::kIs, "LOC"},
           Status::kWarn,
           "NCCL uses P2P only within one GPU, that is never between GPUs",
           {p2p_off_cause(
               "NCCL_P2P_LEVEL=LOC turns NCCL's P2P off between GPUs",
               "unset NCCL_P2P_LEVEL (or set it to SYS) so NCCL may use P2P on every "
               "path; an acceptance run refuses LOC unless --allow-env NCCL_P2P_LEVEL")}},
          {{"env.NCCL_P2P_LEVEL", Op::kIs, "0"},
           Status::kWarn,
           "NCCL_P2P_LEVEL=0 is LOC: P2P never between GPUs",
           {p2p_off_cause(
               "NCCL_P2P_LEVEL=0 turns NCCL's P2P off between GPUs",
               "unset NCCL_P2P_LEVEL (or set it to SYS) so NCCL may use P2P on every "
               "path; an acceptance run refuses LOC unless --allow-env NCCL_P2P_LEVEL")}},
          {{"env.NCCL_P2P_LEVEL", Op::kIs, "NVL"},
           Status::kWarn,
           "NCCL uses P2P only over NVLink: PCIe pairs go through host memory",
           {p2p_off_cause("NCCL_P2P_LEVEL=NVL keeps NCCL off PCIe P2P",
                          "unset NCCL_P2P_LEVEL (or set it to SYS) so NCCL may use PCIe P2P "
                          "between GPUs without NVLink")}},
          {{"env.NCCL_SHM_DISABLE", Op::kIsNot, "0"},
           Status::kWarn,
           "NCCL uses no shared memory between processes: without P2P they use the network",
           {transport_cause("NCCL_SHM_DISABLE turns NCCL's shared-memory transport off",
                            "unset NCCL_SHM_DISABLE unless a container's small /dev/shm forced it "
                            "(then give the container --shm-size or --ipc=host instead)")}},
          {{"env.NCCL_IB_DISABLE", Op::kIsNot, "0"},
           Status::kWarn,
           "NCCL uses no InfiniBand or RoCE: between nodes it uses TCP sockets",
           {transport_cause("NCCL_IB_DISABLE turns NCCL's InfiniBand/RoCE transport off",
                            "unset NCCL_IB_DISABLE where the nodes have InfiniBand or RoCE "
                            "adapters: it also turns RoCE off")}},
          {{"env.NCCL_NET", Op::kSet, ""},
           Status::kWarn,
           "NCCL must use this network plugin: a name that does not load fails communicator init",
           {transport_cause("NCCL_NET forces one network transport",
                            "unset NCCL_NET unless the named plugin (IB, Socket, or a "
                            "libnccl-net plugin) is installed and wanted on every node")}},
      }};
}

}  // namespace p2p::doctor
