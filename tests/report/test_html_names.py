"""The HTML report shows a model's names as the model spells them, escaped
once: a long node name is cut to one ellipsis, and no character reference
shows as text. Reads the page as a browser does (entities decoded), so a name
escaped twice shows up as the literal text '&#8230;'.

Renders LONG_NAMES_MODEL (the peak label cuts its node name) and a copy of
OVERLAP_MODEL whose nodes are renamed with long names holding markup
characters (the overlap table cuts them too).

    test_html_names.py --compiler onnx-to-c --work DIR LONG_NAMES_MODEL.onnx OVERLAP_MODEL.onnx
"""
import argparse
import html.parser
import re
import shutil
import subprocess
import sys
from pathlib import Path

import onnx

ELLIPSIS = "\u2026"
ENTITY_TEXT = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z]+);")


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


class PageText(html.parser.HTMLParser):
    """The text a browser shows (tooltips included), and the cells of each
    table by the table's id."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts, self.cells = [], {}
        self._table, self._cell = None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._table = dict(attrs).get("id")
        elif tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.cells.setdefault(self._table, []).append(self._cell)
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell += data


def render(args, model, tag):
    out = args.work / tag
    page = args.work / f"{tag}.html"
    p = subprocess.run([args.compiler, model, "-o", out, "--html-report", page],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{model}: onnx-to-c failed: {p.stderr.strip()}")
    text = PageText()
    text.feed(page.read_text(encoding="utf-8"))
    for piece in text.texts:
        if ENTITY_TEXT.search(piece):
            fail(f"{tag}: the page shows a character reference as text: {piece[:120]!r}")
        if ELLIPSIS * 2 in piece:
            fail(f"{tag}: the page shows a doubled ellipsis: {piece[:120]!r}")
    return text


def cut(name, length):
    """A name as the report cuts it to `length` characters."""
    return name if len(name) <= length else name[:length - 1] + ELLIPSIS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("long_names_model", type=Path)
    ap.add_argument("overlap_model", type=Path)
    args = ap.parse_args()
    if args.work.exists():
        shutil.rmtree(args.work)
    args.work.mkdir(parents=True)

    # The peak label names its node, cut to 40 characters.
    names = [n.name for n in onnx.load(args.long_names_model).graph.node]
    text = render(args, args.long_names_model, "long_names")
    labels = [t for t in text.texts if t.startswith("peak ") and ELLIPSIS in t]
    if not labels or not any(f"({cut(n, 40)})" in labels[0] for n in names):
        fail(f"the peak label {labels[:1]} does not show a node name cut once to 40 characters")

    # The overlap table names its nodes, cut to 60 characters; the names
    # hold characters HTML escapes.
    model = onnx.load(args.overlap_model)
    for i, node in enumerate(model.graph.node):
        node.name = f"{i:03d} <&> \"node\" 'of' " + "n" * 280
    renamed = args.work / "overlap_long_names.onnx"
    onnx.save(model, renamed)
    text = render(args, renamed, "overlap_long_names")
    rows = text.cells.get("overlaps", [])
    if not rows:
        fail(f"{args.overlap_model} has no overlap table: pick a model with an overlap contract")
    shown = rows[1::5]  # step, node, kind, displacement, bytes saved
    expected = {cut(n.name, 60) for n in model.graph.node}
    if not all(node in expected for node in shown):
        fail(f"the overlap table shows {shown}, not node names cut once to 60 characters")
    print(f"ok: {len(labels)} peak label and {len(shown)} overlap rows show long names escaped once")


if __name__ == "__main__":
    main()
