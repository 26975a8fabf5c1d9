#!/usr/bin/python3
"""Checks that every script installs what it needs through scripts/bootstrap.sh.

Usage: check-script-deps.py [SCRIPTS_DIR]    (default: the folder this file is in)

For every file under SCRIPTS_DIR that calls `bootstrap.sh --OPTION ...` (a shell
script) or declares `# bootstrap: --OPTION ...` (a Python script run by hand),
it follows what that file runs (other scripts and Python files it names), and
collects what they use:
  - Python modules imported (in .py files, `python3 -c` snippets and heredocs),
    other than the standard library, the scripts' own modules and packages the
    same script installs into a venv with pip;
  - the commands and files listed in bootstrap's table (`bootstrap.sh --list`).
Each must be promised by the base row of bootstrap's table or by an option the
calling file passes itself. A file that calls no bootstrap may use only the
base row. Prints one line per problem; exits 1 when there is any.
(bootstrap.sh itself, this file and its test, whose texts hold deliberate
gaps, are not scanned.)
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else here

table = subprocess.run(["bash", os.path.join(root, "bootstrap.sh"), "--list"],
                       check=True, capture_output=True, text=True).stdout
provides = {}  # option -> {(kind, name)}
for line in table.splitlines():
    opt, kind, name = line.split("\t")
    provides.setdefault(opt, set()).add((kind, name))

files = {}
for d, _, names in os.walk(root):
    if "/.cache" in d or "/fuzz" in d:
        continue
    for n in names:
        if n.endswith((".sh", ".py")) and n not in ("bootstrap.sh", "check-script-deps.py", "test-script-deps.sh"):
            files[os.path.relpath(os.path.join(d, n), root)] = open(os.path.join(d, n), errors="replace").read()
by_base = {}
for rel in files:
    by_base.setdefault(os.path.basename(rel), []).append(rel)
local_modules = {os.path.splitext(os.path.basename(r))[0] for r in files if r.endswith(".py")}
stdlib = set(sys.stdlib_module_names)


def code_lines(text):
    """Lines that are not comments (shell or Python)."""
    return [l for l in text.splitlines() if not l.lstrip().startswith("#")]


def options(text):
    opts = set()
    for l in text.splitlines():
        if "bootstrap.sh" in l and not l.lstrip().startswith("#"):
            opts |= set(re.findall(r"(?<![\w-])--[a-z0-9]+\b", l.split("bootstrap.sh", 1)[1]))
        m = re.match(r"\s*#\s*bootstrap:\s*(.*)", l)
        if m:
            opts |= set(re.findall(r"--[a-z0-9]+", m.group(1)))
    return opts


def runs(rel, text):
    """The other scripts this one runs or reads (by file name)."""
    out = set()
    for l in code_lines(text):
        for name in re.findall(r"([\w.-]+\.(?:py|sh))\b", l):
            if name in by_base and name not in ("env.sh",) and os.path.basename(rel) != name:
                out.update(by_base[name])
    return out


def pip_installed(text, rel=None):
    """Packages `pip install` lines of `text` install: named on the line, or listed in a
    requirements file (`-r .../NAME`) beside the file `rel`."""
    mods = set()
    for l in code_lines(text):
        m = re.search(r"pip\"? install\s+(.*)", l)
        if m:
            for pkg in m.group(1).split():
                if not pkg.startswith(("-", ">", "$", "&")):
                    mods.add(re.split(r"[<>=\[]", pkg)[0].replace("-", "_").lower())
            r = re.search(r"-r\s+\"?([^\s\"]+)", m.group(1))
            if r and rel:
                req = os.path.join(root, os.path.dirname(rel), os.path.basename(r.group(1)))
                if os.path.isfile(req):
                    for line in open(req):
                        name = line.split("#")[0].strip()
                        if name:
                            mods.add(re.split(r"[<>=\[ ;]", name)[0].replace("-", "_").lower())
    return mods


def imports(rel, text):
    mods = set()
    for l in code_lines(text):
        for m in re.finditer(r"(?:^|[;\"'\s])(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", l):
            if m.group(1):
                mods.add(m.group(1).split(".")[0])
            else:
                for part in m.group(2).split(","):
                    part = part.strip().split(" ")[0]
                    if part:
                        mods.add(part.split(".")[0])
    return {m for m in mods if m not in stdlib and m not in local_modules}


def tools_used(text):
    used = set()
    body = "\n".join(code_lines(text))
    for entries in provides.values():
        for kind, name in entries:
            if kind == "cmd" and re.search(r"(?<![\w/.-])" + re.escape(name) + r"(?![\w.-])", body):
                used.add(("cmd", name))
            if kind == "file" and "*" not in name and name in body:
                used.add(("file", name))
    return used


def closure(rel):
    seen, todo = set(), [rel]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        # A script that bootstraps itself answers for what it runs; only follow
        # into files that do not.
        todo.extend(r for r in runs(f, files[f]) if not options(files[r]) or r == rel)
    return seen


called = {r for f, t in files.items() for r in runs(f, t)}
problems = []
for rel in sorted(files):
    text = files[rel]
    opts = options(text)
    if not opts and rel in called:
        continue  # checked as part of each script that runs it
    unknown = sorted(o for o in opts if o not in provides and o not in ("--list", "--help"))
    for o in unknown:
        problems.append(f"{rel}: passes {o} to bootstrap.sh, which has no such option")
    have = set(provides.get("base", set()))
    for o in opts:
        have |= provides.get(o, set())
    have_py = {n for k, n in have if k == "py"}
    for f in sorted(closure(rel)):
        ftext = files[f]
        venv = pip_installed(files[rel], rel) | pip_installed(ftext, f)
        for mod in sorted(imports(f, ftext)):
            if mod not in have_py and mod.lower() not in venv:
                where = f"{f} (run by {rel})" if f != rel else rel
                problems.append(f"{where}: imports Python module '{mod}', which no bootstrap option it passes "
                                f"({' '.join(sorted(opts)) or 'none'}) promises; add it to the table and pass that option")
        for kind, name in sorted(tools_used(ftext) - have):
            where = f"{f} (run by {rel})" if f != rel else rel
            need = sorted(o for o, e in provides.items() if (kind, name) in e)
            problems.append(f"{where}: uses {kind} '{name}' but passes no bootstrap option that provides it "
                            f"(it is in: {' '.join(need)})")

for p in sorted(set(problems)):
    print("check-script-deps: " + p)
print(f"check-script-deps: {len(files)} scripts checked, {len(set(problems))} problems")
sys.exit(1 if problems else 0)
