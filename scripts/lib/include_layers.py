#!/usr/bin/env python3
"""Includes between folders that scripts/layers.txt does not allow.

    include_layers.py LAYERS_TXT FILE...

Prints one line per forbidden include, FILE:LINE: FOLDER may not include TARGET (its header
HEADER); LAYERS_TXT: FOLDER: ALLOWED..., and exits 1 if there was one. Exits 2 when LAYERS_TXT
itself is wrong: a folder named twice, or one that names a folder not on a line above its own
(the order of the lines is what keeps the graph free of cycles). Files under tests/, testing/,
fuzz/ or scripts/, and files of folders LAYERS_TXT does not list, are not checked; an include of a
folder LAYERS_TXT does not list is not a folder of ours (a library's header) and is let through.
"""
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/([^"]+)"')
EXEMPT = re.compile(r"(^|/)(tests|testing)/|^(fuzz|scripts)/")


def read_layers(path):
    allowed, order = {}, []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r"([A-Za-z0-9_]+):\s*(.*)", line)
            if not m:
                raise ValueError(f"{path}:{number}: not FOLDER: ALLOWED...: {line}")
            folder, names = m.group(1), m.group(2).split()
            if folder in allowed:
                raise ValueError(f"{path}:{number}: {folder} is named twice")
            for name in names:
                if name not in allowed:
                    raise ValueError(f"{path}:{number}: {folder} may include {name}, which is not "
                                     "on a line above it (a cycle, or a name that is not a folder)")
            allowed[folder] = set(names)
            order.append(folder)
    return allowed


def violations(allowed, path, text):
    folder = path.split("/", 1)[0]
    if "/" not in path or EXEMPT.search(path) or folder not in allowed:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        target = m.group(1)
        if target == folder or target not in allowed or target in allowed[folder]:
            continue
        found.append(f"{path}:{number}: {folder} may not include {target} (its header "
                     f"{target}/{m.group(2)}); scripts/layers.txt: {folder}: "
                     f"{' '.join(sorted(allowed[folder])) or '(nothing)'}")
    return found


def main(argv):
    if len(argv) < 2:
        print("usage: include_layers.py LAYERS_TXT FILE...", file=sys.stderr)
        return 2
    try:
        allowed = read_layers(argv[1])
    except (OSError, ValueError) as e:
        print(f"include_layers: {e}", file=sys.stderr)
        return 2
    bad = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print(f"include_layers: {path}: {e.strerror}", file=sys.stderr)
            return 2
        for v in violations(allowed, path, text):
            print(v)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
