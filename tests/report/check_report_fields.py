"""The JSON report has one description of its fields,
compiler/driver/report_fields.def (key, type, doc line; the writer can name no
other key). This checks that description, that docs/report.schema.json has
exactly its keys with its types (required unless a choice), and that the field
table of docs/report.md is the one generated from it.

    check_report_fields.py           check
    check_report_fields.py --write   regenerate the table in docs/report.md
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ROOT / "compiler" / "driver" / "report_fields.def"
SCHEMA = ROOT / "docs" / "report.schema.json"
DOCS = ROOT / "docs" / "report.md"
TABLE_BEGIN = ("<!-- The field table is generated from compiler/driver/report_fields.def by "
               "tests/report/check_report_fields.py --write. -->")
TABLE_END = "<!-- End of the generated field table. -->"

# Description type -> (what the schema says, the docs' word).
TYPES = {
    "kInteger": ("integer", "integer"),
    "kNumber": ("number", "number"),
    "kBoolean": ("boolean", "boolean"),
    "kString": ("string", "string"),
    "kEnum": ("enum", "string (enum)"),
    "kBytes": ("bytes", "bytes"),
    "kCount": ("count", "count"),
    "kId": ("id", "id"),
    "kIds": ("ids", "ids"),
    "kMs": ("ms", "ms"),
    "kBytesList": ("array of bytes", "bytes[]"),
    "kCountList": ("array of count", "count[]"),
    "kIntegerMap": ("map of integer", "{name: integer}"),
    "kCountMap": ("map of count", "{name: count}"),
    "kObject": ("object", "object"),
    "kRecords": ("records", "object[]"),
}
CONTAINERS = ("kObject", "kRecords")
ENTRY = re.compile(r'^(REPORT_FIELD|REPORT_CHOICE)\((\w+),\s*(\w+),\s*"([^"]*)",\s*(\w+),\s*((?:"[^"]*"\s*)+)\)',
                   re.M)


def read_fields(problems):
    """The description's entries, in file order, as dicts; problems appended."""
    fields, by_id = [], {"kRoot": {"path": "", "type": "kObject"}}
    for m in ENTRY.finditer(FIELDS.read_text()):
        macro, fid, parent, key, ftype, doc = m.groups()
        doc = "".join(re.findall(r'"([^"]*)"', doc)).strip()
        f = {"id": fid, "parent": parent, "key": key, "type": ftype, "doc": doc,
             "choice": macro == "REPORT_CHOICE"}
        if fid in by_id:
            problems.append(f"{fid} is described twice")
        if ftype not in TYPES:
            problems.append(f"{fid}: unknown type {ftype}")
        if not doc or "|" in doc or "\\" in doc:
            problems.append(f"{fid} ({key}) has no doc line, or one with '|' or a backslash")
        owner = by_id.get(parent)
        if owner is None or owner["type"] not in CONTAINERS:
            problems.append(f"{fid}: its parent {parent} is not an object or records field described before it")
            continue
        prefix = owner["path"] + ("[]" if owner["type"] == "kRecords" else "")
        f["path"] = f"{prefix}.{key}" if prefix else key
        if any(g["path"] == f["path"] for g in fields):
            problems.append(f"{f['path']} is described twice")
        fields.append(f)
        by_id[fid] = f
    if not fields:
        problems.append(f"no REPORT_FIELD entries in {FIELDS}")
    return fields


def schema_kind(p):
    if "$ref" in p:
        return p["$ref"].rsplit("/", 1)[-1]
    if "const" in p:
        return "integer" if isinstance(p["const"], int) else "string"
    if "enum" in p:
        return "enum"
    if p.get("type") == "object":
        return "object" if "properties" in p else "map of " + schema_kind(p["additionalProperties"])
    if p.get("type") == "array":
        items = p["items"]
        return "records" if items.get("type") == "object" else "array of " + schema_kind(items)
    return p.get("type", "?")


def check_schema(fields, schema, problems):
    """Each object of the schema against the described fields under it."""
    def compare(node, parent_id, path):
        described = [f for f in fields if f["parent"] == parent_id]
        props = node.get("properties", {})
        for f in described:
            if f["key"] not in props:
                problems.append(f"the schema lacks {f['path']}")
        for key in props:
            if key not in {f["key"] for f in described}:
                problems.append(f"the schema has {path}{key}, which report_fields.def does not describe")
        required = set(node.get("required", []))
        choices = {k for alt in node.get("oneOf", []) for k in alt.get("required", [])}
        for f in described:
            if f["key"] not in props:
                continue
            if (f["key"] in required) == f["choice"] or (f["key"] in choices) != f["choice"]:
                problems.append(f"{f['path']}: the schema's required/oneOf disagrees with "
                                f"{'REPORT_CHOICE' if f['choice'] else 'REPORT_FIELD'}")
            p = props[f["key"]]
            want, got = TYPES.get(f["type"], ("?",))[0], schema_kind(p)
            if want != got:
                problems.append(f"{f['path']}: report_fields.def says {want}, the schema {got}")
            elif f["type"] == "kObject":
                compare(p, f["id"], f["path"] + ".")
            elif f["type"] == "kRecords":
                compare(p["items"], f["id"], f["path"] + "[].")

    compare(schema, "kRoot", "")


def field_table(fields):
    rows = ["| field | type | meaning |", "|---|---|---|"]
    for f in fields:
        kind = TYPES.get(f["type"], ("", "?"))[1] + (", one of" if f["choice"] else "")
        rows.append(f"| `{f['path']}` | {kind} | {f['doc']} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help="regenerate the table in docs/report.md")
    args = ap.parse_args()
    problems = []
    fields = read_fields(problems)
    check_schema(fields, json.loads(SCHEMA.read_text()), problems)
    docs = DOCS.read_text()
    m = re.search(re.escape(TABLE_BEGIN) + r"\n(.*?)\n" + re.escape(TABLE_END), docs, re.S)
    table = field_table(fields)
    if not m:
        problems.append(f"docs/report.md lacks the generated table's markers:\n{TABLE_BEGIN}\n{TABLE_END}")
    elif args.write:
        DOCS.write_text(docs[:m.start(1)] + table + docs[m.end(1):])
    elif m.group(1) != table:
        problems.append("the field table of docs/report.md is not the one report_fields.def gives "
                        "(tests/report/check_report_fields.py --write regenerates it)")
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        sys.exit(1)
    print(f"ok: {len(fields)} fields described, in the schema and in docs/report.md")


if __name__ == "__main__":
    main()
