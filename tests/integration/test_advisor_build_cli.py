"""`flask --app tracker advisor build`: rebuilds the optimal-play tables from the rules."""

from __future__ import annotations

import json

import pytest

from tracker.advisor import store

pytest.importorskip("numpy", reason="the builder needs the `advisor` extra (numpy)")


def test_advisor_build_rebuilds_the_named_tables_as_shipped(runner, tmp_path):
    result = runner.invoke(args=["advisor", "build", "ordered-42", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "ordered-42: pusta tabela 149.6468" in result.output
    built = (tmp_path / "out" / "ordered-42.f32").read_bytes()
    assert built == (store.DATA_DIR / "ordered-42.f32").read_bytes()
    manifest = json.loads((tmp_path / "out" / store.MANIFEST).read_text())
    shipped = store.manifest()["tables"]["ordered-42"]
    assert manifest["tables"]["ordered-42"]["fingerprint"] == shipped["fingerprint"]
    assert manifest["tables"]["ordered-42"]["sha256"] == shipped["sha256"]


def test_advisor_build_refuses_an_unknown_table(runner, tmp_path):
    result = runner.invoke(args=["advisor", "build", "yahtzee", "--out", str(tmp_path / "out")])
    assert result.exit_code != 0
    assert "Nieznane tabele: yahtzee" in result.output
    assert not (tmp_path / "out").exists()
