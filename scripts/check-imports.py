#!/usr/bin/env python3
"""Module edges say the truth: every module a target imports is one it declares in
Package.swift, and every target or product it declares is one it imports.

    scripts/check-imports.py [PACKAGE_DIR]

Reads the manifest with `swift package dump-package` (no build, no resolution), the
imports from each target's sources (Sources/NAME or Tests/NAME unless the manifest gives
a path), and prints one line per problem: `Sources/OCR/TesseractImage.swift: imports
Capture, which target OCR does not declare`. Exit 1 on any problem.

The toolchain's own modules (Foundation, Glibc, Synchronization, Testing...) need no
declaration. A product is taken to be the module of the same name (GRDB, ArgumentParser,
PropertyBased): true of every package this project uses.
"""
import json
import os
import re
import subprocess
import sys

# Modules that come with the toolchain or the OS, never declared in Package.swift.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization", "Observation", "Swift", "_Concurrency",
    "Testing", "XCTest", "os",
}

IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*"          # @testable, @preconcurrency, @_implementationOnly
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)"
)


def imports(path):
    """The modules one Swift file imports, with the line of each."""
    out = []
    in_block_comment = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            stripped = line.strip()
            if in_block_comment:
                if "*/" in stripped:
                    in_block_comment = False
                continue
            if stripped.startswith("/*") and "*/" not in stripped:
                in_block_comment = True
                continue
            m = IMPORT.match(line)
            if m:
                out.append((m.group(1), n))
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", root, "dump-package"],
        check=True, capture_output=True, text=True).stdout)
    problems = []
    # An executable a target declares is built for it to run (CLITests run pricecam), not imported.
    executables = {t["name"] for t in manifest["targets"] if t["type"] == "executable"}
    for target in manifest["targets"]:
        if target["type"] == "system":
            continue
        name = target["name"]
        declared = set()
        for dep in target["dependencies"]:
            # {"byName": ["X", null]}, {"target": ["X", null]}, {"product": ["X", "package", ...]}
            declared.add(list(dep.values())[0][0])
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
        used = {}
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for file in sorted(files):
                if file.endswith(".swift"):
                    path = os.path.join(dirpath, file)
                    for module, line in imports(path):
                        used.setdefault(module, f"{os.path.relpath(path, root)}:{line}")
        for module, where in sorted(used.items()):
            if module not in SYSTEM and module not in declared:
                problems.append(f"{where}: imports {module}, which target {name} does not declare in Package.swift")
        for module in sorted(declared - set(used) - executables):
            problems.append(f"Package.swift: target {name} declares {module} but no file of {folder} imports it")
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"{len(problems)} module edge problem(s): declare what a target imports, drop what it does not", file=sys.stderr)
        return 1
    print(f"module edges: {len(manifest['targets'])} targets, every imported module declared, every declared one imported", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
