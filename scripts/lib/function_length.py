#!/usr/bin/env python3
"""Functions longer than the size budget, in sources that clang-tidy does not see.

    function_length.py [--threshold N] FILE...

Prints FILE:FUNCTION LINES for each function whose body spans more than N lines (default 60),
one per line, and nothing else. Lines are counted as clang-tidy's readability-function-size
counts them: the line of the closing brace minus the line of the opening one, blank lines and
comments included, so that the two agree on a source both read.

Why: clang-tidy reads the compile database of the build without CUDA, so the measuring code (the
.cu kernels, bench/measure/, nccl/run/, the CUDA half of session/) is never parsed by it, and a
CUDA build is more than CI's lint phase can afford. This reads the text instead. It needs no
compiler: it drops comments, string and character literals and preprocessor lines, then walks
the braces. A brace at namespace or class scope opens a function body when the text before it
(since the last ';', '{' or '}' at that scope) has a closing parenthesis and no '=' outside
parentheses and is not a namespace, class, struct, union or enum head; the body's inner braces
are not looked at (a lambda counts toward the function that holds it, which is at least as long).
A function is named as clang-tidy names it: the identifier before its parameter list, without
its class.
"""
import re
import sys

SCOPE_HEAD = re.compile(r"\b(namespace|class|struct|union)\b")
ENUM_HEAD = re.compile(r"\benum\b")
EXTERN_C = re.compile(r'^\s*extern\s*$')  # `extern "C" {` once the string is dropped


def strip(text):
    """The source with comments, literals and preprocessor lines blanked; newlines kept."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A directive, with its continuation lines.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if c == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
            continue
        raw = re.match(r'R"([^()\\ ]{0,16})\(', text[i:i + 20]) if c == "R" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
            continue
        if c in "\"'":
            # A digit separator (1'000'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        line_start = c == "\n" or (line_start and c in " \t")
        i += 1
    return "".join(out)


def outside_parens(head):
    """HEAD with everything inside (), [] and template <> argument lists dropped."""
    head = re.sub(r"\boperator\s*(\(\)|\[\]|[^\s(]+)", "operator", head)
    head = re.sub(r"\btemplate\s*<[^{};]*?>\s*(?=(class|struct|union|typename|auto|[A-Za-z_]))",
                  " ", head)
    out, depth = [], 0
    for ch in head:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def function_name(head):
    """The identifier before the first parameter list of HEAD, without its class."""
    m = re.search(r"(~?[A-Za-z_]\w*|operator\s*(\(\)|[^\s(]+))\s*\(", head)
    return m.group(1).replace(" ", "") if m else "?"


def functions(text):
    """(name, lines) of each function body at namespace or class scope in TEXT."""
    s = strip(text)
    found = []
    head_start = 0
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in ";}":
            head_start = i + 1
        elif c == "{":
            head = s[head_start:i]
            bare = outside_parens(head)
            if ENUM_HEAD.search(bare):
                i = matching_brace(s, i)
                head_start = i + 1
            elif (SCOPE_HEAD.search(bare) and "(" not in bare) or EXTERN_C.match(bare):
                head_start = i + 1  # descend: its contents are at scope level too
            else:
                end = matching_brace(s, i)
                if ")" in head and "=" not in bare:
                    lines = s.count("\n", i, end)
                    found.append((function_name(head), lines))
                i = end
                head_start = i + 1
        i += 1
    return found


def matching_brace(s, i):
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "{":
            depth += 1
        elif s[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(s) - 1


def main(argv):
    threshold = 60
    files = argv[1:]
    if files[:1] == ["--threshold"]:
        threshold, files = int(files[1]), files[2:]
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            print(f"function_length: {path}: {e.strerror}", file=sys.stderr)
            return 2
        for name, lines in functions(text):
            if lines > threshold:
                print(f"{path}:{name} {lines}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
