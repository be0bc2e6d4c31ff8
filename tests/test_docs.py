"""The documents a newcomer reads: a short README, the docs it points to, links that lead somewhere, and no
citation of a document outside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("architecture.md", "performance.md", "ai.md")
README_LIMIT = 16_384  # bytes: read in five minutes
# Split so that this file does not cite what it forbids.
OUTSIDE = re.compile(
    r"DESIGN" + r"(\.md|'s)|\.\./" + r"shared\b|/" + r"work/"
)  # the last: a machine's own folders
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
SKIP_DIRS = {".git", ".venv", "node_modules", "site", "build", ".pytest_cache", ".mypy_cache", ".ruff_cache"}


def markdown_files() -> list[Path]:
    """Return README.md and every Markdown file under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def tracked_files() -> list[Path]:
    """Return the files git tracks, or every file of the tree outside build output when git is absent."""
    git = shutil.which("git")
    if git and (ROOT / ".git").exists():
        out = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return [ROOT / name for name in out.decode().split("\0") if name]
    return [p for p in ROOT.rglob("*") if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)]


def slug(heading: str) -> str:
    """Return the anchor a Markdown heading gets on the usual hosts: lower case, punctuation dropped."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Return the anchors of a Markdown file's headings."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def test_the_readme_is_short():
    size = (ROOT / "README.md").stat().st_size
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; at most {README_LIMIT:,}"


@pytest.mark.parametrize("name", DOCS)
def test_each_document_the_readme_points_to_exists(name):
    path = ROOT / "docs" / name
    assert path.is_file(), f"docs/{name} is missing"
    assert f"docs/{name}" in (ROOT / "README.md").read_text(encoding="utf-8"), (
        f"README.md never links docs/{name}"
    )


def test_no_tracked_file_cites_a_document_outside_the_repository():
    found = []
    for path in tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files (icons) cite nothing
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "cites a document outside the repository:\n" + "\n".join(found)


def broken_links(docs: list[Path], root: Path) -> list[str]:
    """Return each relative link of ``docs`` whose file, or whose heading in a Markdown file, is missing."""
    broken = []
    for doc in docs:
        text = FENCE.sub("", doc.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # an absolute address (https:, mailto:)
            name, _, anchor = target.partition("#")
            dest = (doc.parent / name).resolve() if name else doc
            where = f"{doc.relative_to(root)} -> {target}"
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{where}: no such heading")
    return broken


def test_every_relative_link_leads_to_a_file_and_heading_that_exist():
    broken = broken_links(markdown_files(), ROOT)
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    doc = tmp_path / "a.md"
    doc.write_text(
        "# The arena's JSON\n\n[x](a.md#the-arenas-json) [y](b.md) [z](#nowhere) [w](https://example.org/)\n"
        "```\n[in code](c.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links([doc], tmp_path) == [
        "a.md -> b.md: no such file",
        "a.md -> #nowhere: no such heading",
    ]
