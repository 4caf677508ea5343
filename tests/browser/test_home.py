"""The home page on a 360 px phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tracker.services import accounts


@pytest.fixture(autouse=True)
def an_account_exists(live_server) -> None:
    """Signed-out visitors see the home page only once the installation has an account."""
    with live_server.app.app_context():
        if not accounts.has_accounts():
            accounts.create_account("Rodzina testowa", "sekretne hasło 123")


def test_home_page_fits_a_phone_and_leads_to_the_arbiter(page: Page, screenshot):
    page.goto("/")

    expect(page.get_by_role("heading", name="Kości", level=1)).to_be_visible()
    arbiter = page.get_by_role("link", name="Sędzia – kto ma rację?")
    expect(arbiter).to_be_visible()
    expect(arbiter).to_have_attribute("href", "/sedzia")
    assert arbiter.bounding_box()["height"] >= 48
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("window.innerWidth") == 360
    screenshot(page, "home")


def test_rules_link_opens_the_rules_page(page: Page):
    page.goto("/")

    page.get_by_role("link", name="Zasady").first.click()

    expect(page).to_have_url("/zasady")
    expect(page.get_by_role("heading", name="Zasady", level=1)).to_be_visible()
    # Its contents: each link a thumb's target.
    contents = page.get_by_role("navigation", name="Na tej stronie").get_by_role("link")
    assert contents.count() >= 10
    for link in contents.all():
        box = link.bounding_box()
        assert box is not None
        assert box["height"] >= 48, (link.inner_text(), box)


def test_unknown_page_is_a_polish_404_that_fits_a_phone(page: Page, screenshot):
    response = page.goto("/nie-ma-takiej")

    assert response is not None
    assert response.status == 404
    expect(page.get_by_role("heading", name="Nie ma takiej strony")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "not-found")
