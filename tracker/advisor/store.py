"""The shipped tables: a manifest and one file of little-endian float32 values per table.

A table is mapped into memory (read-only `mmap`) the first time a process asks for it, so the
worker processes of one server share its pages through the OS page cache, and a worker that
never advises never reads it.
"""

from __future__ import annotations

import json
import mmap
import sys
import threading
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .specs import SPECS, Spec

DATA_DIR = Path(__file__).parent / "data"
MANIFEST = "manifest.json"
FORMAT = 1


class AdvisorUnavailable(RuntimeError):
    """The table is missing or does not match the manifest: rebuild with
    `flask --app tracker advisor build`."""


@dataclass(frozen=True)
class Table:
    spec: Spec
    values: Sequence[float]  # indexed by `Spec.index`
    empty_expected: float

    def remaining(self, index: int) -> float:
        """Points still to come from this state under optimal solitaire play."""
        return float(self.values[index])


_lock = threading.Lock()
_tables: dict[str, Table] = {}
_manifest: dict[str, Any] | None = None


def manifest(data_dir: Path = DATA_DIR) -> dict[str, Any]:
    global _manifest
    if data_dir != DATA_DIR:
        return _read_manifest(data_dir)
    if _manifest is None:
        _manifest = _read_manifest(data_dir)
    return _manifest


def _read_manifest(data_dir: Path) -> dict[str, Any]:
    path = data_dir / MANIFEST
    try:
        found: dict[str, Any] = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise AdvisorUnavailable(f"No advisor manifest at {path}: {exc}") from exc
    if found.get("format") != FORMAT:
        raise AdvisorUnavailable(f"Advisor data format {found.get('format')!r}, expected {FORMAT}")
    return found


def table(key: str) -> Table:
    """The table `key`, mapped on first use and kept for the life of the process (it is
    read-only data shipped with the code: it cannot go stale while the code runs)."""
    found = _tables.get(key)
    if found is not None:
        return found
    with _lock:
        found = _tables.get(key)
        if found is None:
            found = load(key)
            _tables[key] = found
    return found


def load(key: str, data_dir: Path = DATA_DIR) -> Table:
    """Map a table and check it: its size, and the empty sheet's value against the manifest."""
    spec = SPECS[key]
    entry = manifest(data_dir).get("tables", {}).get(key)
    if entry is None:
        raise AdvisorUnavailable(f"The advisor table {key} is not built.")
    path = data_dir / entry["file"]
    try:
        with path.open("rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError) as exc:
        raise AdvisorUnavailable(f"Cannot map {path}: {exc}") from exc
    if len(mapped) != 4 * spec.size or entry.get("values") != spec.size:
        raise AdvisorUnavailable(
            f"{path} holds {len(mapped) // 4} values, the state layout needs {spec.size}: "
            "rebuild with `flask --app tracker advisor build`."
        )
    values: Sequence[float]
    if sys.byteorder == "little":
        values = memoryview(mapped).cast("f")
    else:  # pragma: no cover - big-endian machines copy and swap once
        swapped = array("f", mapped[:])
        swapped.byteswap()
        values = swapped
    empty = float(values[spec.index(0, 0, False)])
    if abs(empty - entry["empty_expected"]) > 1e-3:
        raise AdvisorUnavailable(
            f"{path}: the empty sheet is worth {empty:.4f}, the manifest says "
            f"{entry['empty_expected']:.4f}."
        )
    return Table(spec, values, empty)
