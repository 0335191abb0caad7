#!/usr/bin/env python3
"""The units clang-tidy checks: one per library or executable of this checkout, not one per source.

    lint_units.py COMPILE_COMMANDS_JSON REPO_ROOT OUT_DIR

Reads a build's compile database and writes, for each target (the CMakeFiles/<target>.dir of a
compile command's object) and set of flags, OUT_DIR/<target>.cpp, which includes each of the
target's sources in turn, and OUT_DIR/compile_commands.json, which compiles it with the target's
flags. Prints the unit files, one per line.

Why: every source of this project includes the standard library, nlohmann/json and often CLI11;
clang-tidy parses them and runs every check over their AST once per translation unit, which is
most of its time. One unit per target parses and matches them once per target (the doctor's 43
sources: 7 s instead of 105 s), and the diagnostics are the same: the checks match the sources'
code alike wherever it is included from, and the header filter lets through the sources' own
lines. Tests (tests/ folders) and generated files are left out, as before. A build made with
CMake's unity build (CMAKE_UNITY_BUILD, as scripts/test.sh makes its sanitized one) lists its
generated unity sources instead of the real ones: their #include lines name the real ones.

The price: a target's sources must compile as one unit, so two file-local definitions of one
name in one library clash (a redefinition error names both). That is also the rule for one
definition of each helper: the second copy belongs in a shared header.
"""
import collections
import json
import os
import re
import shlex
import sys


def target_of(args):
    """The CMake target that an object file belongs to, and the flags without input and output."""
    out = args[args.index("-o") + 1]
    target = out.split(".dir/")[0].replace("CMakeFiles/", "").strip("/").replace("/", "_")
    flags, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a.endswith((".cpp", ".cc", ".cxx")):
            continue
        else:
            flags.append(a)
    return target, args[0], flags


UNITY_INCLUDE = re.compile(r'^#include "(.+)"$')


def real_sources(path):
    """The sources a compile command compiles: those a CMake unity source includes, or itself."""
    if "/Unity/unity_" not in path:
        return [path]
    with open(path) as f:
        return [m.group(1) for m in map(UNITY_INCLUDE.match, f.read().splitlines()) if m]


def main():
    db_path, root, out_dir = sys.argv[1], os.path.realpath(sys.argv[2]) + os.sep, sys.argv[3]
    groups = collections.OrderedDict()
    seen = set()
    for entry in json.load(open(db_path)):
        compiled = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
        for source in real_sources(compiled):
            path = os.path.realpath(os.path.join(entry["directory"], source))
            rel = path[len(root):] if path.startswith(root) else None
            if rel is None or rel.startswith("build") or "/tests/" in "/" + rel or path in seen:
                continue
            seen.add(path)
            target, compiler, flags = target_of(args)
            key = (target, compiler, tuple(flags))
            groups.setdefault(key, {"directory": entry["directory"], "sources": []})
            groups[key]["sources"].append(path)

    os.makedirs(out_dir, exist_ok=True)
    commands, names = [], collections.Counter()
    for (target, compiler, flags), group in groups.items():
        names[target] += 1
        name = target if names[target] == 1 else "%s_%d" % (target, names[target])
        unit = os.path.join(os.path.realpath(out_dir), name + ".cpp")
        text = "".join('#include "%s"\n' % s for s in group["sources"])
        if not os.path.exists(unit) or open(unit).read() != text:
            with open(unit, "w") as f:
                f.write(text)
        command = [compiler] + list(flags) + ["-c", unit]
        commands.append({"directory": group["directory"], "file": unit,
                         "command": " ".join(shlex.quote(a) for a in command)})
        print(unit)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(commands, f, indent=1)


if __name__ == "__main__":
    main()
