"""How much the turn screen weighs over the wire, compressed, with its CSS and JavaScript.

Run: .venv/bin/python bench/page_weight.py

Builds the app on a temporary database, signs up, starts a game of each table variant with four
players, enters five dice (so every free field shows its pencil mark) and asks for the screen and
every stylesheet and script it links to as a phone's browser does (Accept-Encoding: gzip,
deflate, br). It counts the bytes the app sends (compressed by Flask-Compress). Also checks that
nothing is linked from another host.
"""

from __future__ import annotations

import gzip
import re
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tracker import create_app  # noqa: E402
from tracker.services import accounts, games  # noqa: E402

LIMIT = 30 * 1024
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}


def decoded(response) -> bytes:  # type: ignore[no-untyped-def]
    """The body as the browser reads it (the links are counted in the page itself)."""
    body = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "br":
        import brotli

        return brotli.decompress(body)
    return body


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/w.sqlite3", "WTF_CSRF_ENABLED": False},
            instance_path=Path(tmp) / "instance",
        )
        with app.app_context():
            from flask_migrate import upgrade

            upgrade()
            account = accounts.create_account("Waga", "sekretne hasło 123")
            ids = {
                v: games.create_game(account.id, v, ["Ala", "Ola", "Ela", "Jan"]).id
                for v in ("standard", "ordered", "scandinavian", "triple")
            }
        client = app.test_client()
        client.post("/logowanie", data={"name": "Waga", "password": "sekretne hasło 123"})
        worst = 0
        for variant, game_id in ids.items():
            page = client.get(f"/gry/{game_id}?dice=66653&seq=1", headers=BROWSER)
            html = page.get_data()
            sizes = {"HTML": len(html)}
            html = decoded(page)
            assets = re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html)
            foreign = re.findall(rb'(?:href|src)="((?:https?:)?//[^"]+)"', html)
            for asset in assets:
                body = client.get(asset.decode(), headers=BROWSER).get_data()
                sizes[asset.decode().rsplit("/", 1)[-1]] = len(body)
            total = sum(sizes.values())
            worst = max(worst, total)
            parts = ", ".join(f"{k} {v / 1024:.1f}" for k, v in sizes.items())
            print(f"{variant:13} {total / 1024:5.1f} KB sent  ({parts})")
            if foreign:
                print(f"  links to another host: {foreign}")
                return 1
        verdict = "PASS" if worst <= LIMIT else "FAIL"
        print(f"heaviest turn screen {worst / 1024:.1f} KB, limit {LIMIT / 1024:.0f} KB: {verdict}")
        return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    raise SystemExit(main())
