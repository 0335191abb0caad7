#!/usr/bin/env python3
"""Reads a Prometheus textfile with the prometheus_client exposition parser and checks what
node_exporter's textfile collector needs: every family p2pcheck_*, no sample timestamps, no
series twice. Prints "<families> <samples>" on success; exit 1 with the reason otherwise,
exit 3 when prometheus_client is not installed (the caller skips)."""
import sys

try:
    from prometheus_client.parser import text_string_to_metric_families
except ImportError:
    print("python3 module prometheus_client is not installed (Debian: python3-prometheus-client)")
    sys.exit(3)


def main(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    seen = set()
    families = samples = 0
    for family in text_string_to_metric_families(text):
        families += 1
        if not family.name.startswith("p2pcheck_"):
            raise ValueError(f"family {family.name} lacks the p2pcheck_ prefix")
        if family.type != "gauge":
            raise ValueError(f"family {family.name} is a {family.type}, not a gauge")
        for s in family.samples:
            samples += 1
            if s.timestamp is not None:
                raise ValueError(f"sample {s.name}{s.labels} carries a timestamp")
            key = (s.name, tuple(sorted(s.labels.items())))
            if key in seen:
                raise ValueError(f"series {s.name}{s.labels} appears twice")
            seen.add(key)
    print(families, samples)


if __name__ == "__main__":
    try:
        main(sys.argv[1])
    except Exception as e:  # the parser raises ValueError and others; all are a bad file
        print(f"{sys.argv[1]}: {e}")
        sys.exit(1)
