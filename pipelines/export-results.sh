#!/usr/bin/env bash
# After pipelines/gpu-host.sh: the outputs CI systems and monitoring read, from the documents in
# RESULTS_DIR. Each results document (bench.json, nccl.json) and the doctor and gate output
# become JUnit (*.junit.xml, the pipeline's test report) and a Prometheus textfile (*.prom);
# with a baseline folder, the side-by-side page of each document against the baseline's.
#
#   pipelines/export-results.sh RESULTS_DIR [BASELINE_DIR]
#
# Never changes the job's verdict (pipelines/gpu-host.sh decides it): a document that is missing is
# skipped, and any failure here is reported and ignored.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:?usage: pipelines/export-results.sh RESULTS_DIR [BASELINE_DIR]}
baseline=${2:-}
bin=${P2P_EXPORT_BIN:-build/p2pcheck}  # the executable (tests point it at their build)
[[ -x $bin && -d $results ]] || { echo "export-results: nothing to export ($bin, $results)"; exit 0; }

for doc in bench nccl; do
  [[ -s $results/$doc.json ]] || continue
  "$bin" export "$results/$doc.json" --junit "$results/$doc.junit.xml" || echo "export-results: $doc junit failed"
  "$bin" export "$results/$doc.json" --prom "$results/$doc.prom" || echo "export-results: $doc prometheus failed"
  if [[ -n $baseline && -s $baseline/$doc.json ]]; then
    "$bin" report "$baseline/$doc.json" "$results/$doc.json" --html "$results/$doc-vs-baseline.html" ||
      echo "export-results: $doc side-by-side page failed"
  fi
done
exit 0
