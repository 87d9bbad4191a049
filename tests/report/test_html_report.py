"""--html-report renders in headless Chromium: the page is self-contained (no
scripts, nothing fetched), the rendered DOM holds every plot element, its
numbers agree with the JSON report, and the screenshot is a real picture.
Exit 77 (skip) without Chromium or Pillow.

    test_html_report.py --compiler onnx-to-c --work DIR MODEL.onnx
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

# Every element a reader needs, by id.
PLOT_IDS = ["summary", "live-bytes", "series-chosen", "series-file-order", "lower-bound",
            "peak-marker", "peak-buffers", "arena-layout", "peak-column", "arena-top", "baselines"]


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def chromium(args, work, *extra):
    # --no-sandbox: CI runs as root; --disable-dev-shm-usage: containers have a small /dev/shm.
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--hide-scrollbars", f"--user-data-dir={work / 'chromium-profile'}"]
    p = subprocess.run([args.chromium, *flags, *extra],
                       capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        fail(f"chromium {extra} failed: {p.stderr[-2000:]}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compiler", required=True)
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    ap.add_argument("model", type=Path)
    args = ap.parse_args()
    if not args.chromium:
        print("SKIP: chromium not found (scripts/setup.sh installs it)")
        sys.exit(77)
    try:
        from PIL import Image
    except ImportError:
        print("SKIP: Pillow not found (scripts/setup.sh installs python3-pil)")
        sys.exit(77)

    work = args.work
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    html, report_path = work / "report.html", work / "report.json"
    p = subprocess.run([args.compiler, args.model, "-o", work / "c", "--report", report_path,
                        "--html-report", html], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"onnx-to-c failed: {p.stderr}")
    report = json.loads(report_path.read_text())
    page = html.read_text()

    # Self-contained: nothing to run, nothing to fetch.
    for banned in ("<script", "http://", "https://", " src=", "<link", "@import", "url(h", "url(/"):
        if banned in page.lower():
            fail(f"the page contains '{banned}'")

    dom = chromium(args, work, "--dump-dom", html.as_uri())
    missing = [i for i in PLOT_IDS if f'id="{i}"' not in dom]
    if missing:
        fail(f"the rendered DOM lacks {missing}")
    items = len(re.findall(r'<rect class="item', dom))
    if items < len(report["buffers"]):
        fail(f"the arena layout draws {items} boxes for {len(report['buffers'])} buffers")
    total = re.search(r'total live at step (\d+)</td><td></td><td class="n">([\d,]+)<', dom)
    if not total or int(total.group(1)) != report["peak_step"] or \
            int(total.group(2).replace(",", "")) != report["peak_bytes"]:
        fail(f"the peak table's total {total and total.groups()} is not step {report['peak_step']}, "
             f"{report['peak_bytes']} bytes")
    if f"lower bound {report['lower_bound_bytes']:,} B" not in dom:
        fail("the lower bound's label is missing")
    if report["baselines"]["file_order_peak_bytes"] == report["peak_bytes"]:
        fail("pick a model whose chosen order beats its file order, so both curves show")

    png = work / "report.png"
    chromium(args, work, f"--screenshot={png}", "--window-size=1000,1400", html.as_uri())
    image = Image.open(png).convert("RGB")
    if image.size != (1000, 1400):
        fail(f"screenshot size {image.size}")
    colors = image.getcolors(maxcolors=1 << 20)
    inked = sum(n for n, c in colors if sum(c) < 3 * 235) / (image.size[0] * image.size[1])
    if len(colors) < 50 or inked < 0.03:
        fail(f"the screenshot looks blank: {len(colors)} colours, {inked:.1%} inked")

    def near(rgb, tol=30):
        return sum(n for n, c in colors if all(abs(a - b) <= tol for a, b in zip(c, rgb)))

    # The chosen-order curve (#2f6db5) and the lower bound (#c0392b) are drawn.
    for name, rgb in (("chosen-order curve", (0x2f, 0x6d, 0xb5)), ("lower bound", (0xc0, 0x39, 0x2b))):
        if near(rgb) < 200:
            fail(f"the {name} is not visible in the screenshot")
    print(f"ok: {args.model} rendered ({len(colors)} colours, {inked:.1%} inked, {items} arena boxes)")


if __name__ == "__main__":
    main()
