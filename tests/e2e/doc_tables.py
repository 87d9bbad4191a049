"""Markdown tables of the README and docs/benchmarks.md, read as the checks need them."""
import re


def tables(text):
    """{header line: rows (lists of cells)} of every Markdown table in `text`."""
    found = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                rows.append(cells(row))
            found[line] = rows
    return found


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def table_after(text, header_start):
    """The rows of the table whose header line starts with `header_start`, or None."""
    for header, rows in tables(text).items():
        if header.startswith(header_start):
            return rows
    return None


def number(cell):
    """The byte count (or count) a cell starts with: '73,728 (-33%)' -> 73728."""
    m = re.match(r"[\d,]+", cell)
    if not m:
        raise ValueError(f"not a count: {cell!r}")
    return int(m.group(0).replace(",", ""))


def decimals(text):
    """How many digits a figure such as '0.747' has after its point."""
    return len(text.split(".")[1]) if "." in text else 0
