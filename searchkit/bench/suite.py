"""Benchmark suites: a TOML file (see configs/*.toml) read into checked dataclasses.

Everything that can be wrong with a suite is found here, before any search runs: unknown
keys, values of the wrong type, instance files that cannot be read, engine or heuristic
names that do not exist.  Each problem is one `InputError` line naming the file and key.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..domain import Domain, Instance
from ..errors import InputError
from ..limits import Limits
from ..plugins import get_domain
from .baseline import is_baseline, prepare_job

TOP_KEYS = {"name", "domain", "description", "options", "instances", "limits", "configs"}
INSTANCE_KEYS = {"file", "seeds", "list", "select"}
LIMIT_KEYS = {"timeout_s", "max_expanded", "max_stored", "max_rss_mb"}
CONFIG_KEYS = {"name", "engine", "heuristic", "params", "options", "observer"}
OBSERVERS = ("none", "null")  # "null": a listener that ignores every event (what listening costs)


@dataclass(frozen=True)
class BenchLimits:
    """Per-instance limits; the same fields as `searchkit.Limits`, but plain (picklable)."""

    timeout_s: float | None = None
    max_expanded: int | None = None
    max_stored: int | None = None
    max_rss_mb: float | None = None

    def to_limits(self) -> Limits:
        return Limits(
            max_expanded=self.max_expanded,
            timeout_s=self.timeout_s,
            max_stored=self.max_stored,
            max_rss_mb=self.max_rss_mb,
        )


@dataclass(frozen=True)
class Config:
    """One solver configuration: an engine, a heuristic, engine params, option overrides."""

    name: str
    engine: str | None = None
    heuristic: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    observer: str = "none"

    @property
    def is_baseline(self) -> bool:
        return is_baseline(self.engine)


@dataclass
class Suite:
    """A parsed suite: ``instances`` are the selected ones, ``indices`` their 1-based
    positions in the full instance list (stable names for results and ``--select``)."""

    name: str
    domain: str
    path: Path
    description: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    instances: list[Instance] = field(default_factory=list)
    indices: list[int] = field(default_factory=list)
    limits: BenchLimits = field(default_factory=BenchLimits)
    configs: list[Config] = field(default_factory=list)

    def options_for(self, config: Config, instance: Instance) -> dict[str, Any]:
        """Suite options, then the instance's, then the configuration's overrides."""
        return {**self.options, **instance.options, **config.options}


def load_suite(
    path: str | Path,
    *,
    select: str | None = None,
    timeout_s: float | None = None,
    instances: str | None = None,
    validate: bool = True,
) -> Suite:
    """Read and check a suite file.  ``select`` and ``timeout_s`` override the file's;
    ``instances``, an instance file (a path from the working directory, or a name the domain
    knows), takes the place of the suite's ``[instances]``, so its configurations and limits
    run on another collection (the suite's own ``select`` is dropped with its instances)."""
    path = Path(path)
    where = str(path)
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise InputError(f"suite file {where} not found") from None
    except IsADirectoryError:
        raise InputError(f"suite file {where} is a directory") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{where}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise InputError(f"{where}: not valid TOML: not UTF-8 text (byte {e.start})") from None
    except RecursionError:
        raise InputError(f"{where}: not valid TOML: arrays or tables nested too deeply") from None
    except OSError as e:
        raise InputError(f"cannot read suite file {where}: {e.strerror or e}") from None
    _no_unknown(where, "", data, TOP_KEYS)

    domain_name = _required_string(where, "domain", data.get("domain"))
    try:
        domain = get_domain(domain_name)
    except InputError as e:
        raise InputError(f"{where}: domain: {e}") from None
    base = path.parent
    suite = Suite(
        name=_string(where, "name", data.get("name")) or path.stem,
        domain=domain_name,
        path=path,
        description=_string(where, "description", data.get("description")) or "",
        options=_options(where, "[options]", _table(where, "[options]", data.get("options", {})), domain, base),
    )
    table = _table(where, "[instances]", data.get("instances"), required=True)
    if instances is None:
        found = _instances(where, table, domain, base)
        chosen = select if select is not None else table.get("select")
    else:  # another file: the suite's select named its own instances
        found = _named_file(instances, domain)
        suite.name = f"{suite.name} on {Path(instances).stem}"  # the results say which collection ran
        chosen = select
    key = "--select" if select is not None else "[instances] select"
    suite.indices = (
        parse_select(chosen, len(found), f"{where}: {key}") if chosen is not None else list(range(1, len(found) + 1))
    )
    suite.instances = [found[i - 1] for i in suite.indices]
    suite.limits = _limits(where, _table(where, "[limits]", data.get("limits", {})))
    if timeout_s is not None:
        if not timeout_s > 0:
            raise InputError(f"--timeout must be positive (got {timeout_s})")
        suite.limits = BenchLimits(
            timeout_s, suite.limits.max_expanded, suite.limits.max_stored, suite.limits.max_rss_mb
        )
    suite.configs = _configs(where, data.get("configs"), domain, base)
    if validate:
        validate_configs(suite)
    return suite


def validate_configs(suite: Suite) -> None:
    """Resolve every configuration on the first instance, so a typo fails before any run
    (and the heuristics' tables and engines' compiled code are loaded once, in the parent)."""
    if not suite.instances:
        return
    first = suite.instances[0]
    for i, config in enumerate(suite.configs, 1):
        try:
            job = prepare_job(
                suite.domain, suite.options_for(config, first), config.engine, config.heuristic, config.params
            )
            _load_kernels(job)
        except InputError as e:
            raise InputError(f"{suite.path}: [[configs]] #{i} ({config.name}): {e}") from None
        if job.engine.warm_up is not None:  # done once here, inherited by every forked worker
            job.engine.warm_up()


def _load_kernels(job: Any) -> None:
    """The compiled kernels of the problem's rules loaded (compiled the first time on this
    machine) when the job's engine runs over them (`searchkit.kernels.rules.chosen_for`):
    once here, so no forked worker's time counts their load."""
    from ..kernels.rules import chosen_for

    rules = chosen_for(job.engine, job.params, job.problem)
    if rules is not None:
        from ..kernels.search import warm_up

        warm_up(job.problem, rules)


def parse_select(text: Any, count: int, where: str) -> list[int]:
    """``"1-10,15"`` -> ``[1, ..., 10, 15]``: 1-based, in the order given, no repeats."""
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str) or not text.strip():
        raise InputError(f'{where}: expected indices like "1-10,15", got {text!r}')
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise InputError(f"{where}: {part!r} is not an index or a range like 3-7") from None
        if a < 1 or b < a:
            raise InputError(f"{where}: bad range {part!r}")
        if b > count:
            raise InputError(f"{where}: {part!r} goes past the last instance ({count})")
        out.extend(i for i in range(a, b + 1) if i not in out)
    return out


# -- pieces ---------------------------------------------------------------------------------


def _no_unknown(where: str, section: str, table: dict[Any, Any], known: set[str]) -> None:
    for key in table:
        if key not in known:
            prefix = f"{section}: " if section else ""
            raise InputError(f"{where}: {prefix}unknown key {key!r} (known: {', '.join(sorted(known))})")


def _table(where: str, section: str, value: Any, required: bool = False) -> dict[Any, Any]:
    if value is None and required:
        raise InputError(f"{where}: missing {section} table")
    if not isinstance(value, dict):
        raise InputError(f"{where}: {section} must be a table, got {value!r}")
    return value


def _string(where: str, key: str, value: Any) -> str | None:
    """An optional non-empty string."""
    return None if value is None else _required_string(where, key, value)


def _required_string(where: str, key: str, value: Any) -> str:
    if value is None:
        raise InputError(f"{where}: missing key {key!r}")
    if not isinstance(value, str) or not value:
        raise InputError(f"{where}: {key}: expected a non-empty string, got {value!r}")
    return value


def _options(where: str, section: str, table: dict[Any, Any], domain: Domain, base: Path) -> dict[str, Any]:
    """Check option keys against the domain's `Param`s and their values against the types."""
    params = {p.name: p for p in domain.params}
    out = {}
    for key, value in table.items():
        if key not in params:
            known = ", ".join(params) or "none"
            raise InputError(f"{where}: {section}: unknown key {key!r} (options of {domain.name}: {known})")
        out[key] = _coerce(f"{where}: {section} {key}", value, params[key].type, base)
    return out


def _coerce(where: str, value: Any, kind: type, base: Path) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise InputError(f"{where}: expected true or false, got {value!r}")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise InputError(f"{where}: expected an integer, got {value!r}")
    if kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise InputError(f"{where}: expected a number, got {value!r}")
    if kind is Path:
        if isinstance(value, str) and value:
            p = Path(value).expanduser()
            return p if p.is_absolute() else base / p
        raise InputError(f"{where}: expected a path, got {value!r}")
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)  # `size = 4` for a text option that also takes "3x4"
    raise InputError(f"{where}: expected a string, got {value!r}")


def _number(where: str, value: Any, integer: bool = False, positive: bool = False) -> float | int:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok and integer:
        ok = isinstance(value, int)
    if ok:
        ok = value > 0 if positive else value >= 0
    if not ok:
        kind = "integer" if integer else "number"
        sign = "positive" if positive else "non-negative"
        raise InputError(f"{where}: expected a {sign} {kind}, got {value!r}")
    number: float | int = value
    return number


def _limits(where: str, table: dict[Any, Any]) -> BenchLimits:
    _no_unknown(where, "[limits]", table, LIMIT_KEYS)
    got: dict[str, Any] = {}
    for key, value in table.items():
        integer = key in ("max_expanded", "max_stored")
        got[key] = _number(f"{where}: [limits] {key}", value, integer=integer, positive=True)
    return BenchLimits(**got)


def _instances(where: str, table: dict[Any, Any], domain: Domain, base: Path) -> list[Instance]:
    _no_unknown(where, "[instances]", table, INSTANCE_KEYS)
    given = [k for k in ("file", "seeds", "list") if k in table]
    if len(given) != 1:
        got = ", ".join(given) or "none"
        raise InputError(f"{where}: [instances] needs exactly one of file, seeds, list (got {got})")
    kind = given[0]
    value = table[kind]
    if kind == "file":
        instances = _file_instances(
            f"{where}: [instances] file", _required_string(where, "[instances] file", value), domain, base
        )
    elif kind == "seeds":
        if "seed" not in {p.name for p in domain.params}:
            raise InputError(f"{where}: [instances] seeds: domain {domain.name} has no 'seed' option")
        if not isinstance(value, list):
            raise InputError(f"{where}: [instances] seeds: expected a list of integers, got {value!r}")
        instances = []
        for i, seed in enumerate(value, 1):
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise InputError(f"{where}: [instances] seeds #{i}: expected an integer, got {seed!r}")
            instances.append(Instance(f"seed-{seed}", {"seed": seed}))
    else:
        if not isinstance(value, list):
            raise InputError(f"{where}: [instances] list: expected [[instances.list]] tables, got {value!r}")
        instances = [_inline(where, i, entry, domain, base) for i, entry in enumerate(value, 1)]
    if not instances:
        raise InputError(f"{where}: [instances] {kind}: no instances")
    return _unique(instances, f"{where}: [instances] {kind}")


def _unique(instances: list[Instance], label: str) -> list[Instance]:
    """``instances``, checked to have no two of one name (results are keyed by it)."""
    names = [inst.name for inst in instances]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise InputError(f"{label}: two instances are called {dup!r}")
    return instances


def _named_file(source: str, domain: Domain) -> list[Instance]:
    """``--instances``: a file from the working directory, in place of the suite's instances."""
    found = _file_instances("--instances", source, domain, Path.cwd())
    if not found:
        raise InputError(f"--instances: no instances in {source!r}")
    return _unique(found, "--instances")


def _file_instances(label: str, source: str, domain: Domain, base: Path) -> list[Instance]:
    """The instances the domain reads from ``source`` (relative to ``base``); errors begin with ``label``."""
    try:
        found = list(domain.load_instances(source, base))
    except InputError as e:
        raise InputError(f"{label}: {e}") from None
    except OSError as e:
        raise InputError(f"{label}: cannot read {source!r}: {e.strerror or e}") from None
    for inst in found:
        if not isinstance(inst, Instance):
            raise InputError(f"{label}: {domain.name} returned {inst!r}, not an Instance")
    return found


def _inline(where: str, i: int, entry: Any, domain: Domain, base: Path) -> Instance:
    section = f"[[instances.list]] #{i}"
    entry = dict(_table(where, section, entry))
    name = _string(where, f"{section} name", entry.pop("name", None)) or f"i{i}"
    expected = entry.pop("expected_cost", None)
    if expected is not None:
        expected = _number(f"{where}: {section} expected_cost", expected)
    return Instance(name, _options(where, section, entry, domain, base), expected)


def _configs(where: str, value: Any, domain: Domain, base: Path) -> list[Config]:
    if value is None:
        raise InputError(f"{where}: missing [[configs]] (at least one solver configuration)")
    if not isinstance(value, list) or not value:
        raise InputError(f"{where}: [[configs]] must be one or more tables, got {value!r}")
    configs: list[Config] = []
    for i, entry in enumerate(value, 1):
        section = f"[[configs]] #{i}"
        entry = _table(where, section, entry)
        _no_unknown(where, section, entry, CONFIG_KEYS)
        engine = _string(where, f"{section} engine", entry.get("engine"))
        heuristic = _string(where, f"{section} heuristic", entry.get("heuristic"))
        params = dict(_table(where, f"{section} params", entry.get("params", {})))
        for key, v in params.items():
            if isinstance(v, (dict, list)):
                raise InputError(f"{where}: {section} params {key}: expected a single value, got {v!r}")
        options = _options(
            where, f"{section} options", _table(where, f"{section} options", entry.get("options", {})), domain, base
        )
        name = _string(where, f"{section} name", entry.get("name"))
        if name is None:
            name = "-".join(x for x in (engine or "default", heuristic) if x)
        if any(c.name == name for c in configs):
            raise InputError(f"{where}: {section}: a configuration called {name!r} comes earlier; give it a name")
        observer = _string(where, f"{section} observer", entry.get("observer")) or "none"
        if observer not in OBSERVERS:
            raise InputError(f"{where}: {section} observer: expected one of {', '.join(OBSERVERS)}, got {observer!r}")
        configs.append(Config(name, engine, heuristic, params, options, observer))
    return configs
