"""pyproject.toml (pip) and environment.yml (conda) must describe the same environment.

Both list the runtime dependencies and the extras ("test", and "hub" for JupyterHub and
Binder). A package added to one file and forgotten in the other, or a lower bound raised in
one only, fails here.
"""

from __future__ import annotations

import re

from tests.helpers.project import environment, pyproject

# Entries that are about the environment, not packages the kit needs.
IGNORED = {"python", "pip"}
# The extras environment.yml installs: every extra of pyproject.toml but those in NOT_CONDA.
EXTRAS = ("test", "hub")
# Extras for developers' benchmarks only, left out of the conda environment on purpose.
NOT_CONDA = ("bench",)

# A requirement: optional conda channel, name, optional extras, version spec, optional marker.
_REQUIREMENT = re.compile(
    r"""^\s*
    (?:[A-Za-z0-9_.-]+::)?                 # conda channel prefix, e.g. conda-forge::
    (?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)
    \s*(?:\[[^\]]*\])?                     # extras, e.g. [test]
    \s*(?P<spec>[^;#]*?)                   # version spec, e.g. >=8,<9
    \s*(?:;.*)?$                           # environment marker, e.g. ; python_version<'3.11'
    """,
    re.VERBOSE,
)
_LOWER_BOUND = re.compile(r"(?:>=|==|~=)\s*([0-9][0-9A-Za-z.*+!-]*)")


def normalise_name(name: str) -> str:
    """Compare names the way package indexes do: case and -/_/. do not matter."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text: str) -> tuple[str, str | None]:
    """Return (normalised name, lower bound or None) for a PEP 508 or conda requirement."""
    match = _REQUIREMENT.match(text)
    if match is None:
        raise ValueError(f"cannot read requirement {text!r}")
    spec = match["spec"]
    if spec and not re.fullmatch(r"(?:[<>=!~]=?\s*[0-9][0-9A-Za-z.*+!-]*\s*,?\s*)+", spec):
        raise ValueError(f"cannot read the version spec of {text!r}")
    bound = _LOWER_BOUND.search(spec)
    return normalise_name(match["name"]), bound[1] if bound else None


def version_key(version: str) -> tuple[int, ...] | str:
    """8, 8.0 and 8.0.0 are the same bound; anything non-numeric is compared as text."""
    parts = version.rstrip(".*").split(".")
    if not all(part.isdigit() for part in parts):
        return version
    numbers = [int(part) for part in parts]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def requirements(lines: list[str]) -> dict[str, str | None]:
    result: dict[str, str | None] = {}
    for line in lines:
        name, bound = parse_requirement(line)
        if name in IGNORED:
            continue
        assert name not in result, f"{name} is listed twice"
        result[name] = bound
    return result


def pyproject_requirements() -> dict[str, str | None]:
    """The runtime dependencies and every extra. A package may be in more than one extra
    (jupyter-server-proxy is in "test" and "hub"), with the same lower bound in each."""
    project = pyproject()["project"]
    result = requirements(project["dependencies"])
    for extra in EXTRAS:
        for name, bound in requirements(project["optional-dependencies"][extra]).items():
            assert result.get(name, bound) == bound, (
                f"{name} has different lower bounds in pyproject.toml's lists"
            )
            result[name] = bound
    return result


def conda_requirements() -> dict[str, str | None]:
    """Conda packages plus the pip: section, less the editable install of the kit itself."""
    lines: list[str] = []
    for entry in environment()["dependencies"]:
        if isinstance(entry, dict):
            lines.extend(line for line in entry["pip"] if not line.startswith("-e"))
        else:
            lines.append(entry)
    return requirements(lines)


def test_parse_requirement() -> None:
    assert parse_requirement("ipywidgets>=8,<9") == ("ipywidgets", "8")
    assert parse_requirement("tomli; python_version < '3.11'") == ("tomli", None)
    assert parse_requirement("Types_PyYAML") == ("types-pyyaml", None)
    assert parse_requirement("conda-forge::voila >=0.5.6") == ("voila", "0.5.6")
    assert version_key("8") == version_key("8.0.0")
    assert version_key("4.66") != version_key("4.6")


def test_every_extra_is_compared() -> None:
    assert set(pyproject()["project"]["optional-dependencies"]) == set(EXTRAS) | set(NOT_CONDA)


def test_same_packages() -> None:
    pip_names = set(pyproject_requirements())
    conda_names = set(conda_requirements())
    assert pip_names == conda_names, (
        f"only in pyproject.toml: {sorted(pip_names - conda_names)}; "
        f"only in environment.yml: {sorted(conda_names - pip_names)}"
    )


def test_same_lower_bounds() -> None:
    pip_reqs = pyproject_requirements()
    conda_reqs = conda_requirements()
    differ = {
        name: (bound, conda_reqs[name])
        for name, bound in pip_reqs.items()
        if name in conda_reqs
        and bound is not None
        and conda_reqs[name] is not None
        and version_key(bound) != version_key(str(conda_reqs[name]))
    }
    assert not differ, f"lower bounds differ (pyproject.toml, environment.yml): {differ}"


def test_same_python() -> None:
    requires_python = pyproject()["project"]["requires-python"]
    conda_python = [
        entry
        for entry in environment()["dependencies"]
        if isinstance(entry, str) and parse_requirement(entry)[0] == "python"
    ]
    assert conda_python == [f"python{requires_python}"]


def test_environment_installs_the_kit() -> None:
    env = environment()
    assert env["name"] == "penang-rummy"
    assert env["channels"] == ["conda-forge"]
    pip_lines = [
        line for entry in env["dependencies"] if isinstance(entry, dict) for line in entry["pip"]
    ]
    assert "-e ." in pip_lines
