#!/usr/bin/env python3
"""scripts/fence --self-test: plants one violation of each kind the fence knows in a copy of
the sources, and requires the fence to fail on each, naming the planted place; the copy left
alone must pass. So a fence that stopped looking is noticed (CONTRIBUTING.md, "Layout")."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE_FILE = "Sources/GrandfatherEngine/Bytes/ByteBuffer.swift"
DOMAIN_FILE = "Sources/GrandfatherCore/Rules/AuditRules.swift"
COMMAND_FILE = "Sources/grandfather/AuditCommand.swift"


def append(path, text):
    def plant(root):
        with open(os.path.join(root, path), "a") as f:
            f.write(text)
    return plant


def prepend(path, text):
    def plant(root):
        full = os.path.join(root, path)
        with open(full) as f:
            body = f.read()
        with open(full, "w") as f:
            f.write(text + body)
    return plant


def engine_depends_on_core(root):
    path = os.path.join(root, "Package.swift")
    with open(path) as f:
        text = f.read()
    marker = 'name: "GrandfatherEngine",\n            dependencies: ['
    assert marker in text, "Package.swift's GrandfatherEngine target moved: update the self-test"
    with open(path, "w") as f:
        f.write(text.replace(marker, marker + '\n                "GrandfatherCore",', 1))


def remove_boundary_file(root):
    os.remove(os.path.join(root, "Sources/GrandfatherCore/Stages/Normalize/FieldReader.swift"))


# (what is planted, how, the text the fence's message must hold)
CASES = [
    ("the engine target depends on the domain", engine_depends_on_core, "depends on GrandfatherCore"),
    ("an engine file imports the domain", prepend(ENGINE_FILE, "import GrandfatherCore\n"), ENGINE_FILE),
    ("an engine marker in a rule", append(DOMAIN_FILE, "\nlet planted = unsafeBitCast(1, to: Int.self)\n"), DOMAIN_FILE),
    ("a named boundary file is gone", remove_boundary_file, "FieldReader.swift: named as a boundary file"),
    ("GRDB outside the snapshot", prepend(DOMAIN_FILE, "import GRDB\n"), DOMAIN_FILE),
    ("libcsv outside the engine's CSV", prepend("Sources/GrandfatherEngine/JSON/JSONValue.swift", "import CLibCSV\n"), "JSONValue.swift"),
    ("the byte scan outside CSV and JSON", prepend(ENGINE_FILE, "import CByteScan\n"), ENGINE_FILE),
    ("zlib outside the engine's Bytes", prepend(DOMAIN_FILE, "import CZlib\n"), DOMAIN_FILE),
    ("the library reads the clock", append(DOMAIN_FILE, "\nlet plantedNow = Date()\n"), DOMAIN_FILE),
    ("the engine prints", append(ENGINE_FILE, "\nfunc planted() { print(1) }\n"), ENGINE_FILE),
    ("an engine failure converted outside the edge",
     append(DOMAIN_FILE, '\nlet plantedFailure = GrandfatherError(EngineError.internal("planted"))\n'), DOMAIN_FILE),
    ("engine work converted outside the edge",
     append(COMMAND_FILE, "\nfunc planted() throws(GrandfatherError) { try EngineEdge.converting { try FileSystem.sync(\"/\") } }\n"),
     COMMAND_FILE),
]


def copy_tree(target):
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "Sources", "Package.swift", "scripts/fence"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout.split("\n")
    for name in filter(None, files):
        source = os.path.join(ROOT, name)
        if not os.path.isfile(source):
            continue
        os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
        shutil.copy2(source, os.path.join(target, name))


def fence(root):
    return subprocess.run(["bash", "scripts/fence"], cwd=root, capture_output=True, text=True)


def main():
    problems = 0
    with tempfile.TemporaryDirectory(prefix="fence-self-test-") as scratch:
        clean = os.path.join(scratch, "clean")
        copy_tree(clean)
        result = fence(clean)
        if result.returncode != 0:
            print(f"fence self-test: the unplanted copy fails:\n{result.stderr}", file=sys.stderr)
            return 1
        for index, (what, plant, expected) in enumerate(CASES):
            root = os.path.join(scratch, f"case-{index}")
            shutil.copytree(clean, root)
            plant(root)
            result = fence(root)
            if result.returncode == 1 and expected in result.stderr:
                print(f"fence self-test: fails, as it must, on {what}")
            else:
                problems += 1
                print(f"fence self-test: NOT caught: {what} (exit {result.returncode})\n{result.stderr}",
                      file=sys.stderr)
    if problems:
        print(f"fence self-test: {problems} of {len(CASES)} plantings not caught", file=sys.stderr)
        return 1
    print(f"fence self-test: ok ({len(CASES)} plantings, each caught; the clean copy passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
