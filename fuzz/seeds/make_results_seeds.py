#!/usr/bin/env python3
"""Writes small results documents for the results_document fuzz target's seed corpus.

The real runs in results/ are 200-430 KB: too slow per input for a fuzzer to mutate. These are
the same documents with a few figures of each kind kept (and a version 3 copy of the bench run,
with the fields version 3 added), so every reader path has a seed. Run from anywhere:
    python3 fuzz/seeds/make_results_seeds.py
"""
import copy
import json
import pathlib

here = pathlib.Path(__file__).resolve().parent
runs = here.parents[1] / "results" / "h200-vm-2026-12-02"
out = here / "results_document"


def every(items, n):
    return items[::max(1, len(items) // n)][:n]


def write(name, doc):
    (out / name).write_text(json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n")


bench = json.loads((runs / "h200-bench.json").read_text())
bench["bandwidth"] = every(bench["bandwidth"], 8)
bench["sweeps"] = every(bench["sweeps"], 3)
write("bench-v1.json", bench)

v3 = copy.deepcopy(bench)
v3.update(version=3, written_by="bench", nccl=None, logical_gpus=0, interrupted=None)
for g in v3["gpus"]:
    g["logical_gpu"] = None
write("bench-v3.json", v3)

nccl = json.loads((runs / "h200-nccl.json").read_text())
results = nccl["nccl"]["run"]["results"]
kept = {}
for r in results:
    kept.setdefault((r["collective"], r["status"]), r)
nccl["nccl"]["run"]["results"] = list(kept.values())[:10]
write("nccl-v2.json", nccl)

off = copy.deepcopy(nccl)
off["nccl"]["p2p_off"] = copy.deepcopy(off["nccl"]["run"])
off["nccl"]["p2p_off"]["p2p_disabled"] = True
write("nccl-v2-p2p-off.json", off)
