#!/usr/bin/env python3
"""Runs the examples of README.md and docs/*.md as printed, so that they stay true.

  run_doc_examples.py --source DIR --build DIR --data DIR --scratch DIR --cli FILE
                      [--python FILE] [--c-compiler FILE] [--c-flags FLAGS]

Fenced blocks run by language:
  sh, bash, shell, and unlabelled blocks that begin with a `wayfinder` command: with bash (set -eu
      -o pipefail), the built command first on the PATH as `wayfinder`, and `cc` the project's C
      compiler (with the build's sanitizer flags);
  python: with --python (Debian's /usr/bin/python3), PYTHONPATH=<build>/python;
  c: compiled as C99 against libwayfinder_c (with its run path) and run.
Every other language (cpp, json, ...) is not run. A block that cannot run in a test (it installs
packages, starts a server, is a synopsis or a fragment, or runs for long) is skipped by a marker
on the line before its fence, which says why: <!-- docs-test: skip (reason) -->. Skipped blocks
are listed in the output.

The docs are written for the repository root, with the shared data in ../shared/data and the
build in build/release. Each block runs in a scratch copy of that layout (links to the source
tree's entries, build/release to the build folder, ../shared/data to the data folder), so that
what the examples write lands in the scratch folder. WAYFINDER_DATA_DIR in the environment
overrides --data, as for the other tests. Exits 77 (skipped) when the data folder is missing,
unless WAYFINDER_REQUIRE_DATA is set.
"""
import argparse
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

SKIP_MARKER = re.compile(r"^<!-- docs-test: skip \((?P<reason>[^)]+.*)\) -->$")
SHELL_LANGUAGES = {"sh", "bash", "shell"}
BLOCK_TIMEOUT_SECONDS = 60


def fenced_blocks(path):
    """(line number, language, text, line before the fence) of every fenced block in a file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        fence = re.match(r"^(```+)(\S*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        start = i
        close = fence.group(1)
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip() != close:
            body.append(lines[i])
            i += 1
        previous = lines[start - 1].strip() if start > 0 else ""
        blocks.append((start + 1, fence.group(2).lower(), "\n".join(body) + "\n", previous))
        i += 1
    return blocks


def kind_of(language, text):
    if language in SHELL_LANGUAGES:
        return "sh"
    if language == "" and re.match(r"^\s*(build/release/tools/cli/)?wayfinder\s", text):
        return "sh"
    if language in ("python", "c"):
        return language
    return None


def make_layout(scratch, source, build, data):
    """scratch/repo mirrors the repository root; scratch/shared/data is the data."""
    if scratch.exists():
        shutil.rmtree(scratch)
    repo = scratch / "repo"
    repo.mkdir(parents=True)
    for entry in source.iterdir():
        if entry.name not in ("build", ".git"):
            (repo / entry.name).symlink_to(entry)
    (repo / "build").mkdir()
    (repo / "build" / "release").symlink_to(build)
    (scratch / "shared").mkdir()
    (scratch / "shared" / "data").symlink_to(data)
    return repo


def make_tools(scratch, cli, c_compiler, c_flags):
    """A folder for the PATH with `wayfinder` (the built command) and `cc` (the project's C compiler)."""
    tools = scratch / "tools"
    tools.mkdir()
    (tools / "wayfinder").symlink_to(cli)
    if c_compiler:
        cc = tools / "cc"
        cc.write_text(f'#!/bin/sh\nexec {shlex.quote(c_compiler)} {c_flags} "$@"\n')
        cc.chmod(0o755)
    return tools


def run(command, cwd, env, label):
    started = time.monotonic()
    # A session of its own, so that a block that outlives the timeout (a server, say) is ended
    # with everything it started.
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=BLOCK_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        print(f"FAIL {label}: still running after {BLOCK_TIMEOUT_SECONDS} s (mark a long example skipped, with the reason)")
        return False
    seconds = time.monotonic() - started
    if process.returncode != 0:
        print(f"FAIL {label} (exit {process.returncode}, {seconds:.1f} s):")
        print("    " + output.rstrip().replace("\n", "\n    "))
        return False
    print(f"ok   {label} ({seconds:.1f} s)")
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True, type=pathlib.Path)
    parser.add_argument("--build", required=True, type=pathlib.Path)
    parser.add_argument("--data", required=True, type=pathlib.Path)
    parser.add_argument("--scratch", required=True, type=pathlib.Path)
    parser.add_argument("--cli", required=True, type=pathlib.Path)
    parser.add_argument("--python", default="")
    parser.add_argument("--c-compiler", default="")
    parser.add_argument("--c-flags", default="")
    args = parser.parse_args()
    source, build = args.source.resolve(), args.build.resolve()
    if os.environ.get("WAYFINDER_DATA_DIR"):  # the tests' override of the data folder
        args.data = pathlib.Path(os.environ["WAYFINDER_DATA_DIR"])

    if not (args.data / "movingai").is_dir():
        if os.environ.get("WAYFINDER_REQUIRE_DATA"):
            print(f"{args.data} is missing", file=sys.stderr)
            return 1
        print(f"{args.data} not found: the examples, which read it, are skipped")
        return 77

    scratch = args.scratch.resolve()
    repo = make_layout(scratch, source, build, args.data.resolve())
    tools = make_tools(scratch, args.cli.resolve(), args.c_compiler, args.c_flags)
    env = dict(os.environ)
    env["PATH"] = f"{tools}:{env.get('PATH', '/usr/bin:/bin')}"
    env["PYTHONPATH"] = str(build / "python")
    env.pop("LD_LIBRARY_PATH", None)  # the examples must run without it
    library_dir = build / "bindings" / "c"

    pages = [source / "README.md"] + sorted((source / "docs").glob("*.md"))
    failures = ran = 0
    skipped, not_run = [], {}
    for page in pages:
        name = page.relative_to(source)
        for line, language, text, previous in fenced_blocks(page):
            label = f"{name}:{line} ({language or 'unlabelled'})"
            kind = kind_of(language, text)
            if kind is None:
                not_run[language or "unlabelled"] = not_run.get(language or "unlabelled", 0) + 1
                continue
            marker = SKIP_MARKER.match(previous)
            if marker:
                skipped.append(f"{label}: {marker.group('reason')}")
                continue
            if previous.startswith("<!-- docs-test"):
                print(f"FAIL {label}: a malformed marker {previous!r} (write <!-- docs-test: skip (reason) -->)")
                failures += 1
                continue
            block_dir = scratch / "blocks" / f"{str(name).replace('/', '_')}_{line}"
            block_dir.mkdir(parents=True)
            if kind == "sh":
                script = block_dir / "block.sh"
                script.write_text(text)
                ok = run(["bash", "-eu", "-o", "pipefail", str(script)], repo, env, label)
            elif kind == "python":
                if not args.python or not (build / "python" / "wayfinder").is_dir():
                    skipped.append(f"{label}: the Python module is not built in this configuration")
                    continue
                script = block_dir / "block.py"
                script.write_text(text)
                ok = run([args.python, str(script)], repo, env, label)
            else:
                if not args.c_compiler:
                    skipped.append(f"{label}: the C API is not built in this configuration")
                    continue
                if "int main" not in text:
                    print(f"FAIL {label}: a C block must be a whole program (or be marked skipped, with the reason)")
                    failures += 1
                    continue
                program = block_dir / "block.c"
                program.write_text(text)
                binary = block_dir / "block"
                ok = run(["bash", "-c", f"{shlex.quote(args.c_compiler)} -std=c99 -Wall -Wextra -Werror -pedantic "
                          f"{args.c_flags} -I{shlex.quote(str(source / 'bindings/c/include'))} {shlex.quote(str(program))} "
                          f"-o {shlex.quote(str(binary))} -L{shlex.quote(str(library_dir))} -lwayfinder_c "
                          f"-Wl,-rpath,{shlex.quote(str(library_dir))} && {shlex.quote(str(binary))}"],
                         repo, env, label)
            ran += 1
            failures += 0 if ok else 1

    print(f"\n{ran} examples run, {failures} failed; {len(skipped)} skipped:")
    for line in skipped:
        print(f"  skip {line}")
    print("not run (languages this test does not run): " +
          ", ".join(f"{count} {language}" for language, count in sorted(not_run.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
