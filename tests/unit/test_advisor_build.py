"""The optimal-play builder and the tables shipped with the code.

The builder is checked where answers are published (official Yahtzee: 254.5877 with the printed
forced-joker rule, 254.5896 with Verhoeff's free joker, 245.8708 without the Yahtzee bonus and
the joker), and the shipped tables against the rules they were built from (the fingerprint).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the builder needs the `advisor` extra (numpy)")


from tracker.advisor import build, probe, store  # noqa: E402
from tracker.advisor.specs import SPECS, Spec  # noqa: E402


@pytest.fixture(scope="module")
def shared_verdicts() -> dict[tuple[object, ...], dict[str, probe.Verdict]]:
    return {}


@pytest.fixture
def memo_verdicts(monkeypatch, shared_verdicts):
    """The three standard builds ask the rules the same questions: ask once."""
    ask = probe.verdicts

    def remembered(spec, mask, fifty, dice):
        key = (spec.key, mask, fifty, dice)
        if key not in shared_verdicts:
            shared_verdicts[key] = ask(spec, mask, fifty, dice)
        return shared_verdicts[key]

    monkeypatch.setattr(probe, "verdicts", remembered)


# `slow`: nightly only (tests/conftest.py). On every run the shipped tables are checked against
# their rules (the fingerprint) and the triple-column one against the published 245.8708.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("switches", "published"),
    [
        pytest.param(build.OFFICIAL_YAHTZEE, 254.5877, id="official-forced-joker"),
        pytest.param(build.VERHOEFF_YAHTZEE, 254.5896, id="verhoeff-free-joker"),
        pytest.param(build.NO_YAHTZEE_BONUS, 245.8708, id="no-yahtzee-bonus-nor-joker"),
    ],
)
@pytest.mark.usefixtures("memo_verdicts")
def test_the_builder_reproduces_the_published_optimal_scores(switches, published):
    values = build.solve(SPECS["standard-63"], switches)
    assert round(float(values[0, 0, 0]), 4) == published


def test_the_shipped_table_without_joker_and_extra_bonus_is_the_published_245_87():
    """triple's column is the standard table without the joker and the +100, the rules of the
    published 245.87; its table was built by this builder from the rules in force (the
    fingerprint test) and agrees with the brute force (test_advisor_bruteforce.py)."""
    spec = SPECS["triple-column-63"]
    assert not spec.variant.joker
    assert spec.variant.extra_bonus == 0
    assert spec.variant.table.upper_bonus == 35
    assert round(store.load("triple-column-63").empty_expected, 4) == pytest.approx(245.8708)


def test_kosci_rules_are_worth_at_least_the_official_forced_joker():
    """Kości lets a later Generał go anywhere while its upper field is free: never worth less."""
    manifest = store.manifest()
    assert manifest["tables"]["standard-63"]["empty_expected"] >= 254.5877


def test_a_fresh_build_of_gra_po_kolei_equals_the_shipped_tables(tmp_path):
    build.build(["ordered-63", "ordered-42"], out=tmp_path, log=False)
    for key in ("ordered-63", "ordered-42"):
        shipped = (store.DATA_DIR / f"{key}.f32").read_bytes()
        assert (tmp_path / f"{key}.f32").read_bytes() == shipped, key


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_shipped_table_was_built_from_the_rules_in_force(key):
    entry = store.manifest()["tables"].get(key)
    assert entry is not None, f"{key} is not built: flask --app tracker advisor build {key}"
    assert entry["fingerprint"] == probe.fingerprint(SPECS[key]), (
        f"The rules changed since {key} was built: rebuild it with "
        f"`flask --app tracker advisor build {key}` and commit the data."
    )


@pytest.mark.parametrize("key", sorted(SPECS))
def test_every_shipped_table_maps_and_checks_its_empty_sheet(key):
    table = store.load(key)
    assert table.empty_expected == pytest.approx(
        store.manifest()["tables"][key]["empty_expected"], abs=1e-3
    )


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda v: dataclasses.replace(v, extra_bonus=50), id="extra-bonus"),
        pytest.param(lambda v: dataclasses.replace(v, joker=False), id="joker"),
        pytest.param(
            lambda v: dataclasses.replace(v, table=dataclasses.replace(v.table, upper_bonus=30)),
            id="upper-bonus",
        ),
        pytest.param(
            lambda v: dataclasses.replace(
                v,
                table=dataclasses.replace(
                    v.table,
                    fields=tuple(
                        dataclasses.replace(f, joker_points=35) if f.id == "small_straight" else f
                        for f in v.table.fields
                    ),
                ),
            ),
            id="joker-small-straight",
        ),
    ],
)
def test_a_changed_rule_changes_the_fingerprint(change):
    spec = SPECS["standard-63"]
    changed = Spec(spec.key, change(spec.variant), spec.threshold)
    assert probe.fingerprint(changed) != probe.fingerprint(spec)


def _copy_data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(store.DATA_DIR, data)
    return data


def test_a_truncated_table_fails_loudly(tmp_path):
    data = _copy_data(tmp_path)
    path = data / "ordered-63.f32"
    path.write_bytes(path.read_bytes()[:-4])
    with pytest.raises(store.AdvisorUnavailable, match="rebuild"):
        store.load("ordered-63", data)


def test_a_table_whose_empty_sheet_disagrees_with_the_manifest_fails_loudly(tmp_path):
    data = _copy_data(tmp_path)
    manifest = json.loads((data / store.MANIFEST).read_text())
    manifest["tables"]["ordered-42"]["empty_expected"] += 1.0
    (data / store.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(store.AdvisorUnavailable, match="empty sheet"):
        store.load("ordered-42", data)


def test_an_unknown_data_format_fails_loudly(tmp_path):
    data = _copy_data(tmp_path)
    (data / store.MANIFEST).write_text(json.dumps({"format": 99, "tables": {}}))
    with pytest.raises(store.AdvisorUnavailable, match="format"):
        store.load("ordered-63", data)


def test_the_dice_machinery_keeps_the_best_subset():
    """One roll left to judge: keeping everything of value 1-2-3-4-5 beats rerolling it."""
    dice = build.Dice5.make()
    assert dice.first.sum() == pytest.approx(1.0)
    large = np.zeros((1, len(build.ROLLS)))
    large[0, build.ROLL_INDEX[(1, 2, 3, 4, 5)]] = 40.0
    best = dice.best_after_keep(large)
    assert best[0, build.ROLL_INDEX[(1, 2, 3, 4, 5)]] == pytest.approx(40.0)
    # From 1-2-3-4-6, keep 1-2-3-4 and reroll one die: 1/6 of a five.
    assert best[0, build.ROLL_INDEX[(1, 2, 3, 4, 6)]] == pytest.approx(40.0 / 6)
