"""Make tests/compat/ again from the project's history (run from the repository's root):

    python tests/compat/collect.py

For each landing in LANDINGS it writes `<landing>/` with the shipped games (games/), the test
scripts (tests/scripts/) and every `# complete` example of docs/language.md (as
docs/language_<line>.cardgame), exactly as they were at that commit, and MANIFEST lists the
scripts tests/test_compat.py checks and plays (every one but the libraries under a `lib/`
folder, which only other scripts include).  The corpus is data: a script in it is never edited
to suit a later release.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path

HERE = Path(__file__).parent
# (commit, why this landing): each before a release added words an older script could use.
LANDINGS = [
    ("de81d61", "2026-12-01, before teams (team, members, partners, partner, teams), `sorted x in` and place"),
    ("e138eca", "2026-12-03, the card patterns (groups, runs) and records; before replace and the bidding games"),
    ("d02ab08", "2026-12-06, the newcomer ports (bridge, Skat, cribbage, ...), variants and replace"),
]
FENCE = re.compile(r"```cardgame\n(.*?)```", re.S)


def _git(*args: str) -> bytes:
    return subprocess.run(["git", *args], check=True, capture_output=True).stdout


def collect() -> None:
    manifest = []
    for commit, why in LANDINGS:
        folder = HERE / commit
        archive = tarfile.open(fileobj=io.BytesIO(_git("archive", commit, "games", "tests/scripts")))
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith(".cardgame"):
                target = folder / member.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.extractfile(member).read())
        docs = _git("show", f"{commit}:docs/language.md").decode()
        for m in FENCE.finditer(docs):
            if m.group(1).lstrip().startswith("# complete"):
                line = docs.count("\n", 0, m.start()) + 1
                target = folder / "docs" / f"language_{line}.cardgame"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(m.group(1))
        scripts = sorted(p.relative_to(HERE).as_posix() for p in folder.rglob("*.cardgame") if "lib" not in p.parts)
        manifest += [f"# {commit}: {why}", *scripts]
    (HERE / "MANIFEST").write_text("\n".join(manifest) + "\n")


if __name__ == "__main__":
    collect()
