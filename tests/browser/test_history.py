"""The history on a 360 px phone: the list, its filter, a game's sheet and turn log, and the
account's data page with an import through the file input (CSRF on, as in production).

The live server is shared by the whole session: every test signs up its own account and gets
the family of `history_builders` written straight through the services.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from history_builders import STANDARD_SHEET, build_family
from live import LiveServer
from playwright.sync_api import Page, expect

from tracker.services import games, players, transfer, trash

from . import phone
from .axe import audit

PASSWORD = "tajne hasło 123"


def no_sideways_scroll(page: Page) -> bool:
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def small_tap_targets(page: Page) -> list[str]:
    """Links, buttons and fields in the page's content smaller than 48 px high (a link inside a
    sentence excepted)."""
    page.wait_for_load_state("load")  # measured with the stylesheet applied, not before it
    return page.evaluate(
        """() => [...document.querySelectorAll(
              'main a, main button, main summary, main input, main select')]
            .filter(e => e.offsetParent !== null && e.type !== 'hidden')
            .filter(e => !(e.tagName === 'A' && e.closest('p')))
            .filter(e => e.getBoundingClientRect().height < 47.5)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def with_history(live_server: LiveServer, account_id: int) -> dict[str, int]:
    with live_server.app.app_context():
        return build_family(account_id)


def test_the_history_and_a_games_page_on_a_phone(page: Page, live_server: LiveServer, screenshot):
    ids = with_history(live_server, phone.sign_up_id(page, live_server))
    page.reload()

    page.get_by_role("navigation", name="Menu główne").get_by_role("link", name="Historia").click()

    expect(page.get_by_role("heading", name="Historia gier")).to_be_visible()
    items = page.locator(".history-item")
    expect(items).to_have_count(6)
    expect(items.nth(0)).to_contain_text("w toku")
    expect(items.nth(0)).to_contain_text("kolejka 2 z 13")
    expect(items.nth(5)).to_contain_text("Remis: Ala i Ola")
    expect(page.locator(".history-item.is-open")).to_have_count(2)
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "history-list")

    # The filter: closed until asked for; a wrong date is said next to its field.
    page.get_by_text("Filtry").click()
    page.get_by_label("Wariant").select_option(label="Poker kościany bez tabeli")
    page.get_by_role("button", name="Pokaż").click()
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Wygrywa Ala")
    # Folded, its summary says the filter in words, as the statistics' does.
    expect(page.locator(".filters .filter-now")).to_have_text("Poker kościany bez tabeli")
    # With a filter on, the form folds: the games it found come first on the phone's screen.
    expect(page.get_by_label("Od dnia")).to_be_hidden()
    expect(items.first).to_be_in_viewport()
    page.get_by_text("Filtry").click()
    page.get_by_label("Od dnia").fill("2025-05-02")
    page.get_by_label("Do dnia").fill("2025-05-01")
    page.get_by_role("button", name="Pokaż").click()
    expect(page.locator("#do-error")).to_have_text(
        "Data „do” jest wcześniejsza niż data „od”. Popraw jedną z nich."
    )
    assert no_sideways_scroll(page)
    screenshot(page, "history-filter-error")

    # A game's page: the paper sheet (scrolling sideways inside its own box) and the log.
    page.get_by_role("link", name="Wyczyść").click()
    page.locator(f'.history-item[data-game="{ids["tie"]}"] a').click()
    expect(page).to_have_url(re.compile(rf"/gry/{ids['tie']}/tabela$"))
    log = page.locator(".log li")
    expect(log).to_have_count(27)
    corrected = page.locator(".log li.is-undone")
    expect(corrected).to_have_count(1)
    expect(corrected.locator("s")).to_have_text("Ala – Trzy jednakowe 21")
    expect(corrected).to_contain_text("kolejka 2 · 6-6-6-1-2")
    expect(log.last).to_contain_text("1. Ala – Jedynki 3")
    assert no_sideways_scroll(page)
    screenshot(page, "history-game")

    page.goto(f"/gry/{ids['poker']}/tabela")
    expect(page.locator(".log li")).to_have_count(14)
    expect(page.locator(".log li").last).to_contain_text("runda 1")
    assert no_sideways_scroll(page)


def test_the_accounts_data_page_exports_and_imports(
    page: Page, live_server: LiveServer, screenshot, tmp_path: Path
):
    # The export of one family, brought into a fresh account through the page.
    kowalscy = phone.sign_up_id(page, live_server, "Kowalscy")
    ids = with_history(live_server, kowalscy)
    with live_server.app.app_context():
        document = transfer.export_account(kowalscy)
    export = tmp_path / "kosci.json"
    export.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    phone.sign_out(page)
    phone.sign_up_id(page, live_server, "Nowi")

    page.goto("/konto")
    page.get_by_role("link", name="Dane konta: kopia, eksport, import").click()
    expect(page.get_by_role("heading", name="Dane konta")).to_be_visible()
    expect(page.get_by_text("0 gier, 0 graczy")).to_be_visible()
    page.get_by_label("Plik kopii (JSON)").set_input_files(export)
    page.get_by_role("button", name="Wczytaj plik").click()

    expect(page.get_by_text("Zaimportowano 6 gier i 4 graczy.")).to_be_visible()
    expect(page.get_by_text("6 gier, 4 gracze")).to_be_visible()
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "account-data")

    # A tampered file: nothing changes and the page says why, next to the file field.
    document["games"][0]["turns"][0]["points"] = 50
    export.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    page.get_by_label("Plik kopii (JSON)").set_input_files(export)
    page.get_by_role("button", name="Wczytaj plik").click()
    expect(page.locator("#file-error")).to_contain_text("Nic nie zaimportowano.")
    expect(page.locator("#file-error")).to_contain_text("zapisano 50 pkt")
    expect(page.get_by_text("6 gier, 4 gracze")).to_be_visible()
    assert no_sideways_scroll(page)
    screenshot(page, "account-data-error")

    page.get_by_role("link", name="Historia gier").click()
    expect(page.locator(".history-item")).to_have_count(len(ids))


def test_a_game_deleted_by_mistake_comes_back_from_cofnij_and_the_trash(
    page: Page, live_server: LiveServer, screenshot
):
    """„Usuń” on the home page, „Tak, usuń grę”: the game is gone, and „Cofnij” beside the
    message brings it back with its turns; a game deleted on purpose waits in „Kosz”."""
    account = phone.sign_up_id(page, live_server)
    ids = with_history(live_server, account)
    with live_server.app.app_context():
        today = games.create_game(account, "standard", ["Ala", "Ola"]).id
        for dice, field in STANDARD_SHEET[:3]:
            games.record_turn(account, today, dice, field, 0)
    page.goto("/")
    page.locator(f'.game-item[data-game="{today}"]').get_by_role("link", name="Usuń").click()
    expect(
        page.get_by_text("trafi do kosza. Przez 30 dni można ją stamtąd przywrócić")
    ).to_be_visible()
    page.get_by_role("button", name="Tak, usuń grę").click()

    message = page.locator(".flash-with-undo")
    expect(message).to_contain_text(
        "Usunięto grę: Kości (tabela polska) (Ala i Ola). Leży w koszu 30 dni."
    )
    expect(page.locator(f'.game-item[data-game="{today}"]')).to_have_count(0)
    undo = message.get_by_role("button", name="Cofnij usunięcie gry")
    box = undo.bounding_box()
    assert box is not None
    assert box["height"] >= 47.5
    assert no_sideways_scroll(page)
    screenshot(page, "deleted-with-undo")
    audit(page, "home, a deletion with its „Cofnij”")

    undo.click()

    expect(page.get_by_text("Przywrócono grę: Kości (tabela polska) (Ala i Ola).")).to_be_visible()
    restored = int(page.url.rstrip("/").rsplit("/", 1)[1])
    assert restored != today
    page.goto("/")
    expect(page.locator(f'.game-item[data-game="{restored}"]')).to_contain_text("kolejka 2 z 13")

    # A finished game deleted from its sheet's menu waits in the trash, listed from the history.
    page.goto(f"/gry/{ids['ordered']}/usun")
    page.get_by_role("button", name="Tak, usuń grę").click()
    expect(page.locator(".flash-with-undo")).to_contain_text("Gra po kolei (Ola)")
    page.goto("/historia")
    page.get_by_role("link", name="Kosz (1)").click()
    expect(page.get_by_role("heading", name="Kosz")).to_be_visible()
    entry = page.locator(".trash-list .game-item")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("Ola")
    expect(entry).to_contain_text("Gra po kolei")
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "trash")
    entry.get_by_role("button", name="Przywróć grę").click()
    expect(page.get_by_text("Przywrócono grę: Gra po kolei (Ola).")).to_be_visible()
    page.goto("/historia")
    expect(page.locator(".history-item")).to_have_count(7)


def test_a_game_of_two_players_merged_since_says_how_to_get_it_back(
    page: Page, live_server: LiveServer, screenshot
):
    """Ala and Alicja's game in the trash, then Alicja merged into Ala: „Przywróć” says who
    they are and to undo the merge; undone on „Gracze”, the game comes back."""
    account = phone.sign_up_id(page, live_server)
    with live_server.app.app_context():
        game = games.create_game(account, "standard", ["Ala", "Alicja"]).id
        games.create_game(account, "standard", ["Ala"])
        games.create_game(account, "standard", ["Alicja"])
        ids = {p.name: p.id for p in players.list_players(account)}
        trash.delete_game(account, game)
        players.merge_players(account, ids["Alicja"], ids["Ala"])

    page.goto("/historia/kosz")
    page.locator(".trash-list .game-item").get_by_role("button", name="Przywróć grę").click()

    expect(
        page.get_by_text(
            "Tej gry nie da się przywrócić: grali w niej Ala i Alicja, a to teraz jeden gracz, "
            "Ala. Jeśli połączono ich przez pomyłkę, cofnij to połączenie na stronie Gracze i "
            "przywróć grę jeszcze raz."
        )
    ).to_be_visible()
    expect(page.locator(".trash-list .game-item")).to_have_count(1)
    assert no_sideways_scroll(page)
    assert small_tap_targets(page) == []
    screenshot(page, "trash-players-merged")

    page.goto("/gracze")
    page.locator(".recent-merges").get_by_role(
        "button", name="Cofnij połączenie gracza Alicja"
    ).click()
    expect(
        page.get_by_text("Cofnięto połączenie: Alicja znów jest osobnym graczem")
    ).to_be_visible()
    page.goto("/historia/kosz")
    page.locator(".trash-list .game-item").get_by_role("button", name="Przywróć grę").click()
    expect(
        page.get_by_text("Przywrócono grę: Kości (tabela polska) (Ala i Alicja).")
    ).to_be_visible()
