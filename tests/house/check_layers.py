#!/usr/bin/env python3
"""The include graph and the CMake targets against the layers of docs/architecture.md.

The layer table in docs/architecture.md is the one source of truth: each row
names a layer, its folders, its CMake libraries, the layers it may use (and,
through them, what those may use) and the third-party include prefixes it may
name. This check fails, naming file and line, when

  - a folder of the table does not exist, a row names an unknown layer, or the
    table has a cycle;
  - a C, C++ or assembler source under a folder of the table is in no layer;
  - an #include resolves to a layer its file's layer may not use (up a layer,
    or sideways), to a file in no layer, or to no file under a folder of the
    repository; or names a third-party header its layer does not list;
  - a CMake target builds a source of a layer its own may not use (a library
    of the table: of another layer at all), or links a target of a layer its
    own may not use.

usage: check_layers.py [REPO]   (default: the repository that holds this file)
"""
import os
import re
import sys

DOC = "docs/architecture.md"
SOURCE_SUFFIXES = (".h", ".hh", ".hpp", ".c", ".cc", ".cpp", ".def", ".inc", ".s", ".S")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
NONE = ("", "-", "—", "(none)", "nothing")


class Layer:
    def __init__(self, name, folders, libraries, uses, third_party, line):
        self.name, self.folders, self.libraries = name, folders, libraries
        self.uses, self.third_party, self.line = uses, third_party, line
        self.allowed = set()


def cell_items(cell):
    """The names in a table cell: comma- or space-separated, backticks dropped."""
    cell = cell.replace("`", "").strip()
    if cell.lower() in NONE:
        return []
    return [item for item in re.split(r"[,\s]+", cell) if item and item not in NONE]


def read_layers(repo, errors):
    """The layer table: the first table whose header starts `| Layer | Folders |`."""
    path = os.path.join(repo, DOC)
    layers, columns = [], None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            cells = None
            if line.startswith("|"):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if columns is None:
                if cells and [c.lower() for c in cells[:2]] == ["layer", "folders"]:
                    columns = [c.lower() for c in cells]
                continue
            if cells is None:
                break  # the table ended
            if set("".join(cells)) <= set("-: "):
                continue  # the header's rule
            row = dict(zip(columns, cells))
            layers.append(Layer(row.get("layer", "").replace("`", ""),
                                [f.rstrip("/") for f in cell_items(row.get("folders", ""))],
                                cell_items(row.get("cmake libraries", "")),
                                cell_items(row.get("may use", "")),
                                cell_items(row.get("third-party includes", "")), number))
    if not layers:
        errors.append(f"{DOC}: no layer table (a table whose header starts '| Layer | Folders |')")
    by_name, names = {}, {layer.name for layer in layers}
    for layer in layers:
        if layer.name in by_name:
            errors.append(f"{DOC}:{layer.line}: layer '{layer.name}' twice")
        by_name[layer.name] = layer
        for folder in layer.folders:
            if not os.path.isdir(os.path.join(repo, folder)):
                errors.append(f"{DOC}:{layer.line}: layer '{layer.name}': no folder {folder}/")
        for used in layer.uses:
            if used not in names:
                errors.append(f"{DOC}:{layer.line}: layer '{layer.name}' uses unknown layer '{used}'")
    close_over_uses(by_name, errors)
    return by_name


def close_over_uses(by_name, errors):
    """allowed = the layer itself and everything the layers it uses may use."""
    state = {}

    def visit(name, path):
        if state.get(name) == "done":
            return by_name[name].allowed
        if state.get(name) == "open":
            errors.append(f"{DOC}: the layers use each other in a cycle: {' -> '.join(path + [name])}")
            return set()
        state[name] = "open"
        layer = by_name[name]
        layer.allowed = {name}
        for used in layer.uses:
            if used in by_name:
                layer.allowed |= visit(used, path + [name])
        state[name] = "done"
        return layer.allowed

    for name in by_name:
        visit(name, [])


def layer_of(path, layers):
    """The layer whose folder is the longest prefix of path (None: in no layer)."""
    best, best_len = None, -1
    for layer in layers.values():
        for folder in layer.folders:
            if (path == folder or path.startswith(folder + "/")) and len(folder) > best_len:
                best, best_len = layer, len(folder)
    return best


def source_files(repo, roots):
    for root in sorted(roots):
        for directory, subdirs, files in os.walk(os.path.join(repo, root)):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(directory, name), repo).replace(os.sep, "/")


def resolve(repo, source, include, by_basename):
    """The repository file an include names, or None: next to the file, from
    the repository's root, or under an include folder (runtime/include): a file
    whose path ends with the include, first in the including file's top folder."""
    near = os.path.normpath(os.path.join(os.path.dirname(source), include)).replace(os.sep, "/")
    if os.path.isfile(os.path.join(repo, near)):
        return near
    if os.path.isfile(os.path.join(repo, include)):
        return os.path.normpath(include).replace(os.sep, "/")
    ends = [p for p in by_basename.get(os.path.basename(include), []) if p.endswith("/" + include)]
    top = source.split("/")[0]
    ends.sort(key=lambda p: (p.split("/")[0] != top, p))
    return ends[0] if ends else None


def check_includes(repo, layers, errors):
    roots = {folder.split("/")[0] for layer in layers.values() for folder in layer.folders}
    files = list(source_files(repo, roots))
    by_basename = {}
    for path in files:
        by_basename.setdefault(os.path.basename(path), []).append(path)
    top_folders = {d for d in os.listdir(repo) if os.path.isdir(os.path.join(repo, d))}
    for source in files:
        layer = layer_of(source, layers)
        if layer is None:
            errors.append(f"{source}: in no layer of {DOC}")
            continue
        with open(os.path.join(repo, source), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                quoted, include = match.group(1) == '"', match.group(2).strip()
                text = match.group(1) + include + ('"' if quoted else ">")
                where = f"{source}:{number}: #include {text}"
                target = resolve(repo, source, include, by_basename) if quoted else (
                    include if os.path.isfile(os.path.join(repo, include)) else None)
                if target is not None:
                    used = layer_of(target, layers)
                    if used is None:
                        errors.append(f"{where}: {target} is in no layer of {DOC}")
                    elif used.name not in layer.allowed:
                        errors.append(f"{where}: layer '{layer.name}' may not use layer "
                                      f"'{used.name}' ({DOC})")
                elif not quoted:
                    continue  # a system header
                elif include.split("/")[0] in top_folders:
                    errors.append(f"{where}: no such file in the repository")
                elif "/" in include and not any(include.startswith(p) for p in layer.third_party):
                    errors.append(f"{where}: layer '{layer.name}' does not list this third-party "
                                  f"include in {DOC}")
                # else: a header generated at build time or given by the build (mlp.h, plugin_api.h)
    return files


CMAKE_COMMAND = re.compile(r"\b(add_library|add_executable|target_link_libraries)\s*\(([^)]*)\)", re.S)
CMAKE_KEYWORDS = {"STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE", "IMPORTED", "ALIAS",
                  "EXCLUDE_FROM_ALL", "PUBLIC", "PRIVATE", "WIN32", "MACOSX_BUNDLE", "GLOBAL"}


def cmake_commands(repo, roots):
    for root in sorted(roots):
        for directory, subdirs, files in os.walk(os.path.join(repo, root)):
            subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
            if "CMakeLists.txt" not in files:
                continue
            path = os.path.join(directory, "CMakeLists.txt")
            with open(path, encoding="utf-8") as f:
                text = re.sub(r"#[^\n]*", "", f.read())
            folder = os.path.relpath(directory, repo).replace(os.sep, "/")
            for match in CMAKE_COMMAND.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                args = [a.strip('"') for a in match.group(2).split()]
                yield f"{folder}/CMakeLists.txt:{line}", folder, match.group(1), args


def target_sources(repo, folder, args):
    """The repository paths of a target's sources that CMake names literally."""
    for source in args:
        source = source.replace("${CMAKE_CURRENT_SOURCE_DIR}", os.path.join(repo, folder))
        source = source.replace("${PROJECT_SOURCE_DIR}", repo)
        if source not in CMAKE_KEYWORDS and "$" not in source:
            path = os.path.relpath(os.path.normpath(os.path.join(repo, folder, source)), repo)
            yield path.replace(os.sep, "/")


def check_cmake(repo, layers, errors):
    """A target belongs to the layer that lists it, else to its first source's
    layer (a test built by the runtime's CMakeLists is a test), else to its
    CMakeLists' folder's."""
    roots = {folder.split("/")[0] for layer in layers.values() for folder in layer.folders}
    listed = {lib: layer for layer in layers.values() for lib in layer.libraries}
    commands = list(cmake_commands(repo, roots))
    target_layer = {}
    for where, folder, command, args in commands:
        if command == "target_link_libraries" or not args or "$" in args[0]:
            continue
        name, sources = args[0], list(target_sources(repo, folder, args[1:]))
        layer = listed.get(name) or layer_of(sources[0] if sources else folder, layers)
        if layer is None:
            continue
        target_layer[name] = layer
        for path in sources:
            used = layer_of(path, layers)
            if used is None or used.name not in layer.allowed or (name in listed and used is not layer):
                errors.append(f"{where}: {name} (layer '{layer.name}') builds {path}, of layer "
                              f"'{used.name if used else None}'")
    for library in listed:
        if library not in target_layer:
            errors.append(f"{DOC}: library {library} is built nowhere under {', '.join(sorted(roots))}")
    for where, folder, command, args in commands:
        if command != "target_link_libraries" or not args or args[0] not in target_layer:
            continue
        layer = target_layer[args[0]]
        for linked in args[1:]:
            used = target_layer.get(linked)
            if used is not None and used.name not in layer.allowed:
                errors.append(f"{where}: {args[0]} (layer '{layer.name}') links {linked}, of layer "
                              f"'{used.name}' ({DOC})")


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    errors = []
    layers = read_layers(repo, errors)
    files = check_includes(repo, layers, errors) if layers else []
    if layers:
        check_cmake(repo, layers, errors)
    for error in errors:
        print(error)
    if errors:
        print(f"house.layers: {len(errors)} problem(s) against the layers of {DOC}")
        return 1
    print(f"house.layers: {len(files)} files and their CMake targets follow the {len(layers)} "
          f"layers of {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
