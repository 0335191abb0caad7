#!/usr/bin/env python3
"""Summarises the output of scripts/side-by-side.sh: for every figure both tools measure, each
round's ratio p2pcheck/peer (peer/p2pcheck for latency, where lower is better), the worst round,
how many rounds reach 0.99x, and each tool's spread over rounds (max/min of the per-round
figures, minus one). Then the wall times of the default runs against the speed goals.

usage: side_by_side_summary.py OUT"""
import json
import os
import re
import statistics
import sys

NVB = {  # p2pcheck figure -> nvbandwidth test
    "h2d_ce/host->gpu0": "host_to_device_memcpy_ce",
    "d2h_ce/gpu0->host": "device_to_host_memcpy_ce",
    "h2d_d2h_ce/host->gpu0": "host_to_device_bidirectional_memcpy_ce",
    "h2d_d2h_ce/gpu0->host": "device_to_host_bidirectional_memcpy_ce",
    "h2d_sm/host->gpu0": "host_to_device_memcpy_sm",
    "d2h_sm/gpu0->host": "device_to_host_memcpy_sm",
    "h2d_d2h_sm/host->gpu0": "host_to_device_bidirectional_memcpy_sm",
    "h2d_d2h_sm/gpu0->host": "device_to_host_bidirectional_memcpy_sm",
    "device_local_ce/gpu0->gpu0": "device_local_copy",
    "latency_host/gpu0->host": "host_device_latency_sm",
}
OPS = ["all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "sendrecv"]


def nvbandwidth_sums(path):
    sums = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"SUM (\S+) ([0-9.]+)", line)
            if m:
                sums[m.group(1)] = float(m.group(2))
    return sums


def p2pcheck_figures(path):
    with open(path) as f:
        doc = json.load(f)
    figures = {}
    for r in doc.get("bandwidth", []):
        if r.get("part") != "sum" and r.get("median_gbps") is not None:
            figures[f'{r["case"]}/{r["src"]}->{r["dst"]}'] = r["median_gbps"]
    for r in doc.get("latency", []):
        if r.get("median_ns") is not None:
            figures[f'{r["case"]}/{r["src"]}->{r["dst"]}'] = r["median_ns"]
    return figures


def collective_rows(path):
    """size -> out-of-place (time_us, algbw, busbw) from a nccl-tests-style table."""
    rows = {}
    if not os.path.exists(path):
        return rows
    with open(path, errors="replace") as f:
        for line in f:
            cols = line.split()
            if len(cols) >= 9 and cols[0].isdigit():
                try:
                    rows[int(cols[0])] = (float(cols[5]), float(cols[6]), float(cols[7]))
                except ValueError:
                    pass
    return rows


def spread(values):
    return (max(values) / min(values) - 1) * 100 if values and min(values) > 0 else float("nan")


def print_table(title, series):
    """series: name -> list over rounds of (p2pcheck, peer, lower_is_better)."""
    print(title)
    print(f'{"figure":<34} {"peer":>9} {"p2pcheck":>9} {"worst":>6} {"≥0.99":>6} {"spread p2p":>10} {"peer":>6}  ratio per round')
    for name, rounds in series.items():
        if not rounds:
            continue
        ratios = [(peer / mine) if low else (mine / peer) for mine, peer, low in rounds]
        mine = [r[0] for r in rounds]
        peer = [r[1] for r in rounds]
        ok = sum(1 for q in ratios if q >= 0.99)
        print(f"{name:<34} {statistics.median(peer):9.2f} {statistics.median(mine):9.2f} {min(ratios):6.3f} "
              f"{ok:>3}/{len(ratios):<2} {spread(mine):9.2f}% {spread(peer):5.2f}%  "
              + " ".join(f"{q:.3f}" for q in ratios))
    print()


def projection(doc, wall_s):
    """Seconds the run of `doc` (on logical GPUs of one device) would take on as many physical
    GPUs joined by PCIe: every benchmark's copies at the rate the host link of this GPU carries
    (its h2d_ce figure at the largest size) where the logical figure was faster, the rest (fills,
    verification, launches, latency) as measured. Concurrent lanes of one benchmark (bidirectional,
    contention) count once, by their slowest lane."""
    opts = doc.get("options", {})
    repeats = opts.get("samples", 5) + opts.get("warmup_samples", 1)
    host = [r for r in doc.get("bandwidth", []) if r["case"] == "h2d_ce" and r.get("median_gbps")]
    if not host:
        return None, None
    link = max(host, key=lambda r: r["bytes"])["median_gbps"]
    groups = {}
    for r in doc.get("bandwidth", []):
        if r.get("part") == "sum" or not r.get("median_gbps"):
            continue
        case = r["case"]
        anchor = {"contention_one_to_all": r["src"], "contention_all_to_one": r["dst"],
                  "contention_ring": "*"}.get(case, "-".join(sorted([r["src"], r["dst"]])))
        data_gb = r["bytes"] * r.get("copies_per_sample", 1) * repeats / 1e9
        logical = data_gb / r["median_gbps"]
        physical = data_gb / min(r["median_gbps"], link)
        key = (case, r["bytes"], anchor)
        old = groups.get(key, (0.0, 0.0))
        groups[key] = (max(old[0], logical), max(old[1], physical))
    extra = sum(p - l for l, p in groups.values())
    # bench measures the routes through host memory of logical GPUs once per device (its warning
    # says so); a physical run measures them for every GPU (host<->GPU) or pair (staged), each
    # taking about as long as the one measured here.
    n = len(doc.get("gpus", []))
    if any("first logical GPU of each device" in w for w in doc.get("warnings", [])):
        largest = max(r["bytes"] for r in doc.get("bandwidth", []))
        for (case, size, anchor), (_, physical) in groups.items():
            if size != largest:
                continue
            if case == "staged":
                extra += (n * (n - 1) - 1) * physical
            elif "host" in anchor:
                extra += (n - 1) * physical
    return wall_s + extra, link


def main(out):
    rounds = sorted((d for d in os.listdir(out) if d.startswith("round-")), key=lambda d: int(d[6:]))
    copies, collectives = {k: [] for k in NVB}, {}
    for d in rounds:
        base = os.path.join(out, d)
        try:
            nvb = nvbandwidth_sums(os.path.join(base, "nvbandwidth.txt"))
            mine = p2pcheck_figures(os.path.join(base, "bench.json"))
        except (OSError, ValueError) as e:
            print(f"{d}: copies skipped ({e})", file=sys.stderr)
            nvb, mine = {}, {}
        for fig, test in NVB.items():
            if fig in mine and test in nvb:
                copies[fig].append((mine[fig], nvb[test], fig.startswith("latency")))
        for op in OPS:
            nt = collective_rows(os.path.join(base, f"nt-{op}.txt"))
            pc = collective_rows(os.path.join(base, f"pc-{op}.txt"))
            for size in sorted(set(nt) & set(pc)):
                # busbw where the collective moves bytes across a bus; algbw where one rank's busbw is 0.
                use = 2 if nt[size][2] > 0 and pc[size][2] > 0 else 1
                key = f"{op} {size >> 20} MiB {'busbw' if use == 2 else 'algbw'}"
                collectives.setdefault(key, []).append((pc[size][use], nt[size][use], False))
    print(f"# {len(rounds)} interleaved rounds, {out}\n")
    print_table("copies: p2pcheck against nvbandwidth (GB/s; latency in ns)", copies)
    print_table("collectives: p2pcheck nccl against nccl-tests (GB/s, out of place)", collectives)

    path = os.path.join(out, "timings.txt")
    if os.path.exists(path):
        t = {}
        with open(path) as f:
            for line in f:
                label, seconds, rc = line.split()
                t[label] = (float(seconds), int(rc))
        print("wall times of the default runs (s, exit code)")
        for label in sorted(k for k in t if not k.startswith("round")):
            print(f"  {label:<28} {t[label][0]:8.1f}  exit {t[label][1]}")
        get = lambda k: t.get(k, (float("nan"), 0))[0]
        peers = get("default.nvbandwidth") + get("default.nccl-tests")
        ours = get("default.p2pcheck-bench") + get("default.p2pcheck-nccl")
        logical = get("logical8.p2pcheck-bench") + get("logical8.p2pcheck-nccl")
        print(f"  one GPU: p2pcheck bench+nccl {ours:.1f} s = {ours / peers:.2f}x nvbandwidth+nccl-tests ({peers:.1f} s); goal < 0.5x")
        print(f"  8 logical GPUs: bench+nccl {logical:.1f} s; goal < 90 s")
        doc_path = os.path.join(out, "logical8-bench.json")
        if os.path.exists(doc_path):
            with open(doc_path) as f:
                doc = json.load(f)
            projected, link = projection(doc, get("logical8.p2pcheck-bench"))
            if projected is not None:
                print(f"  projected for 8 physical GPUs on PCIe (every copy at most {link:.1f} GB/s, this GPU's host "
                      f"link): bench {projected:.1f} s + nccl")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
