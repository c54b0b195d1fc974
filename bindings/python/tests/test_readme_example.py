"""The Python example in README.md runs exactly as printed."""

import os
import pathlib
import re


def test_readme_python_example_runs(data_dir, monkeypatch):
    readme = pathlib.Path(os.environ.get("WAYFINDER_README", pathlib.Path(__file__).parents[3] / "README.md"))
    text = readme.read_text()
    match = re.search(r"<!-- python example -->\s*```python\n(.*?)```", text, re.S)
    assert match, "README.md has no ```python block after <!-- python example -->"
    code = match.group(1)
    assert len(code.strip().splitlines()) <= 12
    # The example reads ../shared/data relative to the repository, as the README's commands do.
    monkeypatch.chdir(readme.parent)
    exec(compile(code, "README.md", "exec"), {})
