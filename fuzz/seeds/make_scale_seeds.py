#!/usr/bin/env python3
"""Writes the seeds that hold a reader to memory linear in its input.

Each is as large as a fuzz input may be (64 KiB) and names many ranks in few bytes: a reader
that builds a square over the ranks it is told of (the nccl-tests importer once made a 700 x 700
transport matrix from the first, the NCCL log reader a 4096 x 4096 one from the second) holds far
more than fuzz::kAllowancePerInputByte per byte of them, and the fuzz run fails on its first
input. Run from anywhere:
    python3 fuzz/seeds/make_scale_seeds.py
"""
import pathlib

here = pathlib.Path(__file__).resolve().parent


def nccl_tests_many_ranks(ranks=700):
    lines = ["# nThread 1 nGpus 1 minBytes 8 maxBytes 1024 step: 2(factor) warmup iters: 5 "
             "iters: 20 agg iters: 1 validation: 1 graph: 0", "#", "# Using devices"]
    lines += ["#  Rank %d Pid %d on n%d device %d [0000:%02x:00] H100" % (r, 100 + r, r // 8, r % 8, r % 8)
              for r in range(ranks)]
    lines += ["#", "#       size         count      type   redop    root     time   algbw   busbw "
              "#wrong     time   algbw   busbw #wrong",
              "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)       "
              "     (us)  (GB/s)  (GB/s)       "]
    for k in range(8):
        size = 8 << k
        lines.append("  %10d  %12d     float     sum      -1    35.8    0.00    0.00      0    "
                     "33.5    0.00    0.00      0" % (size, size // 4))
    lines.append("# Avg bus bandwidth    : 0.00")
    return "\n".join(lines) + "\n"


def write(folder, name, text):
    path = here / folder
    path.mkdir(exist_ok=True)
    assert len(text.encode()) <= 65536, name
    (path / name).write_text(text)


write("nccl_tests", "nccl-tests-700-ranks.txt", nccl_tests_many_ranks())
write("nccl_log", "rank-4095.log",
      "node7:9100:9150 [0] NCCL INFO Channel 00/0 : 4095[0] -> 0[1] via P2P/CUMEM/read\n")
