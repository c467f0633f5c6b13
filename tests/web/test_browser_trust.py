"""Trust in a real headless Chromium against ``agora serve`` (demo agents): hire, rate with a
review, the average on the agent page and the gallery, favourite, filter by favourites, compare
two agents and run one input through both. Marked ``process`` (``make prove``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("web-trust")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    # A generous start: nine people share this machine's two cores (the migrations run first).
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def test_hire_rate_favourite_compare_and_run_one_input_through_both(
    server: tuple[str, Path], browser: object
) -> None:
    base, data = server
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _sign_up_and_in(page, base, data, "Grace")
        # Hire the echo agent.
        page.goto(f"{base}/agents")
        page.click(".cards .agent >> text=Echo")
        page.wait_for_selector("#hire-form")
        echo_url = page.url
        page.fill("#f-text", "harbour lanterns")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        # Rate it with a review (the form is there once the job has ended).
        page.reload()
        page.check("#rating-form input[name=stars][value='4']")
        page.fill("#review", "Quick and **exact**")
        page.click("#rating-form button[type=submit]")
        page.wait_for_selector("#my-rating")
        assert "4 out of 5" in page.locator("#my-rating").inner_text()
        # The average on the agent page, the review rendered (Markdown, sanitised).
        page.goto(echo_url)
        assert page.locator("#rating-average").inner_text() == "4.0"
        assert page.locator("#reviews strong", has_text="exact").count() == 1
        # …and on the gallery's card.
        page.goto(f"{base}/agents")
        card = page.locator(".cards .agent", has_text="Echo")
        assert "4.0" in card.locator(".rating").inner_text()
        # Favourite it, then filter the gallery by favourites.
        page.goto(echo_url)
        page.click("#favourite-button")
        page.wait_for_selector("#favourite-button[aria-pressed=true]")
        page.goto(f"{base}/agents")
        page.check("#favourites-only")
        page.click("form[role=search] button")
        page.wait_for_url(re.compile(r".*favourites=true.*"))
        names = page.locator(".cards .agent h2").all_inner_texts()
        assert names == ["Echo"], names
        # Sorted by rating, the rated agent comes first.
        page.goto(f"{base}/agents?sort=rating")
        assert page.locator(".cards .agent h2").first.inner_text() == "Echo"
        # Compare two agents, then run one input through both.
        page.goto(f"{base}/agents")
        for name in ("Echo", "Reviewer"):
            page.locator(".cards .agent", has_text=name).locator("input[name=ids]").check()
        page.click("#compare-button")
        page.wait_for_selector("#compare-table")
        headers = page.locator("#compare-table thead th").all_inner_texts()
        assert {"Echo", "Reviewer"} <= set(headers), headers
        assert "★ 4.0" in page.locator("#compare-table").inner_text()
        page.fill("#compare-run-form #f-text", "one input, two agents")
        page.click("#compare-run-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/following\?.*"))
        assert page.locator("#following li").count() == 2
        page.wait_for_selector("#following li[data-status=COMPLETED]", timeout=TIMEOUT_MS)
        page.wait_for_selector(
            "#following li:has-text('Reviewer')[data-status=INPUT_REQUIRED]", timeout=TIMEOUT_MS
        )
    finally:
        _shot(page, "trust-journey")
        context.close()
