#!/usr/bin/env python3
"""House rule: no function over 120 lines outside generated tables and tests.

Finds every function definition in the C and C++ sources under compiler/,
passes/, targets/, runtime/ and bench/, and in the Python under scripts/ and
bench/, and fails on one longer than the limit, naming file, line, function
and length. A function's length runs from the first line of its declaration
to its closing brace (C, C++) or from its `def` to its last line (Python, by
`ast`), comments and blank lines included. Folders named `tests` (test
programs and fixtures) are not scanned.

C and C++ are read without a compiler: comments, string and character
literals are blanked, preprocessor lines dropped (of an #if/#elif/#else chain
only the first branch is kept, so that braces balance), and braces matched.
A brace opens a function body when the text before it, at namespace or class
scope, ends in a parameter list (and qualifiers, a trailing return type or a
constructor's initializers); namespaces, extern "C" blocks and class bodies
are searched inside; any other brace (an initializer, an enum) is skipped
whole. Before the tree, the scanner is checked on a few known snippets.

    check_function_length.py [--root DIR] [--max-lines 120]
"""
import argparse
import ast
import re
import sys
from pathlib import Path

C_ROOTS = ("compiler", "passes", "targets", "runtime", "bench")
PY_ROOTS = ("scripts", "bench")
C_SUFFIXES = {".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp"}
SKIPPED_DIRS = {"tests", "__pycache__"}


def blank(text):
    """The text with comments and literals' contents turned into spaces
    (newlines kept, so line numbers stay)."""
    out = []
    i, n = 0, len(text)

    def keep_lines(s):  # line breaks and line continuations stay
        return re.sub(r"[^\n\\]|\\(?!\n)", " ", s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(keep_lines(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(keep_lines(text[i:j]))
            i = j
        elif c == '"' and i > 0 and text[i - 1] == "R" and not re.match(r"\w", text[i - 2:i - 1] or " "):
            # A raw string: R"delim( ... )delim".
            m = re.match(r'"([^()\\\s]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            j = text.find(close, i + m.end())
            j = n if j < 0 else j + len(close)
            out.append('"' + keep_lines(text[i + 1:j - 1]) + '"')
            i = j
        elif c == '"' or (c == "'" and not _is_digit_separator(text, i)):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + keep_lines(text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _is_digit_separator(text, i):
    """A quote inside a number (C++14 1'000) or after an identifier that is
    not a character literal's prefix."""
    m = re.search(r"(\w+)$", text[max(0, i - 32):i])
    return bool(m) and m.group(1) not in ("L", "u", "U", "u8")


def drop_preprocessor(text):
    """Directive lines blanked; of each #if chain only the first branch kept."""
    lines = text.split("\n")
    out = []
    stack = []  # per open #if: True while skipping its later branches
    continued = False
    for line in lines:
        directive = continued or line.lstrip().startswith("#")
        if directive:
            if not continued:
                word = re.match(r"\s*#\s*(\w*)", line).group(1)
                if word in ("if", "ifdef", "ifndef"):
                    stack.append(False)
                elif word in ("elif", "else") and stack:
                    stack[-1] = True
                elif word == "endif" and stack:
                    stack.pop()
            continued = line.rstrip().endswith("\\")
            out.append("")
        elif any(stack):
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


ACCESS_LABEL = re.compile(r"\b(public|private|protected)\s*:(?!:)")
FUNCTION_TAIL = re.compile(
    r"\)\s*(?:const\b|volatile\b|noexcept\b(?:\s*\([^()]*\))?|override\b|final\b|mutable\b|&&?|\s)*"
    r"(?:->[^{};]*)?$")
CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")
NAME_BEFORE_PAREN = re.compile(r"(operator\s*(?:\(\s*\)|[^\s(]+)|~?[A-Za-z_]\w*)\s*$")


def top_level(header):
    """The header with everything inside parentheses blanked."""
    depth, out = 0, []
    for c in header:
        if c == ")":
            depth -= 1
        out.append(c if depth == 0 or c in "()" else " ")
        if c == "(":
            depth += 1
    return "".join(out)


def function_name(header):
    """The name before the parameter list and where it starts in `header`,
    or None when this is no function."""
    flat = top_level(header)
    init = CTOR_INIT.search(flat)
    signature = flat[:init.start() + 1] if init else flat
    if not FUNCTION_TAIL.search(signature):
        return None
    if re.search(r"(?<![=!<>])=(?!=)", re.sub(r"operator\s*\S+", "", signature)):
        return None  # an initializer (a lambda, a table)
    if re.search(r"\b(namespace|class|struct|union|enum)\b", signature.split("(")[0]):
        return None
    close = signature.rfind(")")
    depth, j = 0, close
    while j >= 0:  # the parameter list's opening parenthesis
        depth += {")": 1, "(": -1}.get(signature[j], 0)
        if depth == 0:
            break
        j -= 1
    m = NAME_BEFORE_PAREN.search(header[:j])
    if not m or m.group(1) in ("if", "for", "while", "switch", "catch", "return", "sizeof"):
        return None
    return re.sub(r"\s+", "", m.group(1)), m.start(1)


def match_brace(text, i):
    """Index of the brace closing the one at i."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def c_functions(text):
    """(line, name, length) of every function definition in C or C++ text."""
    text = drop_preprocessor(blank(text))
    found = []

    def scan(lo, hi):
        start = lo  # where the current declaration's text begins
        i = lo
        while i < hi:
            c = text[i]
            if c in ";}":
                start = i + 1
            elif c == "{":
                header = text[start:i]
                labels = list(ACCESS_LABEL.finditer(header))
                if labels:
                    start += labels[-1].end()
                    header = text[start:i]
                end = match_brace(text, i)
                flat = top_level(header)
                if CTOR_INIT.search(flat) and re.search(r"[\w>]\s*$", header):
                    i = end + 1  # a member's braced initializer: the header goes on
                    continue
                if re.search(r"\bnamespace\b|\bextern\s*\"\s*\"\s*$", header) or (
                        re.search(r"\b(class|struct|union)\b", flat) and "(" not in flat
                        and "=" not in flat):
                    scan(i + 1, end)
                else:
                    found_name = function_name(header)
                    if found_name:
                        name, at = found_name
                        # The declaration starts after anything closed
                        # before its name (macro calls without a semicolon).
                        before = top_level(header[:at]).rfind(")") + 1
                        first = start + before + len(header[before:]) - len(header[before:].lstrip())
                        line = text.count("\n", 0, first) + 1
                        found.append((line, name, text.count("\n", first, end) + 1))
                i = end
                start = end + 1
            i += 1

    scan(0, len(text))
    return found


def py_functions(text, path):
    tree = ast.parse(text, filename=str(path))
    return [(node.lineno, node.name, node.end_lineno - node.lineno + 1)
            for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def sources(root):
    def walk(folder, suffixes):
        if not folder.is_dir():
            return
        for path in sorted(folder.rglob("*")):
            parts = set(path.relative_to(root).parts[:-1])
            if path.suffix in suffixes and path.is_file() and not parts & SKIPPED_DIRS:
                yield path

    for name in C_ROOTS:
        for path in walk(root / name, C_SUFFIXES):
            yield path, c_functions
    for name in PY_ROOTS:
        for path in walk(root / name, {".py"}):
            yield path, lambda text, path=path: py_functions(text, path)


SELF_TEST = [
    # (source, [(line, name, length)]): what the scanner must find.
    ("namespace a {\nint F(int x) {\n  return x;\n}\n}  // namespace a\n", [(2, "F", 3)]),
    ("class K {\n public:\n  K(int v) : v_{v}, w_(2) {\n    g();\n  }\n  int v_, w_;\n};\n",
     [(3, "K", 3)]),
    ('const char* s = "}{";\nstatic int\nG(void)\n{\n  /* } */ return \'{\';\n}\n',
     [(2, "G", 5)]),
    ('auto t = R"(\n}\n)";\nextern "C" {\nvoid H() {\n#if A\n  if (x) {\n#else\n  if (y) {\n#endif\n  }\n}\n}\n',
     [(5, "H", 8)]),
    ("int T[] = {1, 2};\nenum E { kA };\nbool operator==(const K& a, const K& b) const {\n"
     "  auto f = [&](int v) { return v; };\n  return f(1) == 1'000;\n}\n", [(3, "operator==", 4)]),
    ("#define M(P) \\\n  /* a comment \\\n   */ \\\n  static void P##_f(void) { \\\n  }\n"
     "REGISTER(x)\nvoid G(void) {\n  M(y)\n}\n", [(7, "G", 3)]),
]


def self_test():
    for source, want in SELF_TEST:
        got = c_functions(source)
        if got != want:
            print(f"FAIL: the scanner finds {got} instead of {want} in:\n{source}")
            sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    ap.add_argument("--max-lines", type=int, default=120)
    args = ap.parse_args()
    self_test()
    files = functions = 0
    long = []
    for path, find in sources(args.root):
        files += 1
        for line, name, length in find(path.read_text(encoding="utf-8", errors="replace")):
            functions += 1
            if length > args.max_lines:
                long.append(f"{path.relative_to(args.root)}:{line}: {name} is {length} lines")
    for entry in long:
        print(entry)
    if long:
        print(f"FAIL: {len(long)} functions over {args.max_lines} lines")
        sys.exit(1)
    print(f"ok: {functions} functions in {files} files, none over {args.max_lines} lines")


if __name__ == "__main__":
    main()
