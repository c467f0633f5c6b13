"""Issue 45 through HTTP: the theme choice (``POST /theme``, a cookie, ``<html data-theme>``),
the public ``/design`` page showing every component, the header's one row of sections with the
current one marked and its account menu, and the credits page's spend chart (SVG, no script)."""

from __future__ import annotations

import re
import uuid

import httpx2

from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.settings import Settings
from tests.web.test_pages import _sign_up_in


async def test_the_theme_is_a_cookie_the_page_reads(client: httpx2.AsyncClient) -> None:
    plain = await client.get("/agents")
    assert plain.status_code == 200 and '<html lang="en">' in plain.text
    chosen = await client.post("/theme", data={"theme": "dark", "next": "/agents?q=echo"})
    assert chosen.status_code == 303 and chosen.headers["location"] == "/agents?q=echo"
    cookie = next(c for c in chosen.headers.get_list("set-cookie") if "agora_theme=" in c)
    assert (
        cookie.startswith("agora_theme=dark;") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    )
    dark = await client.get("/agents")
    assert '<html lang="en" data-theme="dark">' in dark.text
    assert 'option value="dark" selected' in dark.text
    # "As the device" forgets the choice; an unknown word too; `next` stays on this site.
    back = await client.post("/theme", data={"theme": "system", "next": "//evil.example/"})
    assert back.headers["location"] == "/agents"
    assert any('agora_theme=""' in c for c in back.headers.get_list("set-cookie"))
    client.cookies.set("agora_theme", "<script>")
    odd = await client.get("/agents")
    assert '<html lang="en">' in odd.text and "&lt;script" not in odd.text


async def test_the_design_page_shows_every_component(client: httpx2.AsyncClient) -> None:
    page = await client.get("/design")
    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    for part in (
        'class="swatches"', 'class="type-scale"', 'class="primary"', 'class="secondary"',
        'class="ghost"', 'class="danger"', 'class="status status-input_required"',
        "Needs your input", 'class="cards"', "<table>", 'class="field invalid"',
        'aria-invalid="true"', 'class="hint"', 'class="empty"', 'class="toast static"',
        'class="menu-button"', 'class="tabs"', 'class="timeline"', 'aria-current="step"',
        '<svg viewBox=',
    ):  # fmt: skip
        assert part in page.text, part
    assert "<script>" not in page.text and " style=" not in page.text


async def test_one_header_row_marks_the_section_and_holds_the_account_menu(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "row@example.com")
    page = (await client.get("/credits")).text
    nav = page[page.index('<nav aria-label="Main"') : page.index("</nav>")]
    assert re.findall(r">([^<]+)</a>", nav) == ["Agents", "History", "My tasks", "Projects"]
    menu = page[page.index('<details class="menu-button account-menu"') :]
    menu = menu[: menu.index("</details>")]
    assert '<a href="/credits" aria-current="page">Credits</a>' in menu
    for part in ('id="workspace-switcher"', "data-autosubmit", "data-nojs>Switch", "Sign out"):
        assert part in menu, part
    # The skip link comes first; the brand is out of the Tab order (Agents leads there too).
    body = page[page.index("<body>") :]
    assert body.index('class="skip"') < body.index('class="brand"')
    assert '<a class="brand" href="/agents" tabindex="-1">' in page


async def test_the_credits_page_charts_the_spend_per_day(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await _sign_up_in(client, settings, "spend@example.com")
    page = (await client.get("/credits")).text
    chart = page[page.index('<figure class="chart" id="spend-chart">') :]
    chart = chart[: chart.index("</figure>")]
    assert "Credits spent per day, last 30 days" in chart
    assert chart.count("<rect ") == 30 and "Nothing spent in the last 30 days." in chart
    assert 'role="img"' in chart


async def test_the_spend_chart_counts_todays_charges(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await _sign_up_in(client, settings, "spender@example.com")
    workspace = uuid.UUID((await client.get("/v1/credits")).json()["data"]["workspaceId"])
    me = uuid.UUID((await client.get("/v1/users/me")).json()["data"]["id"])
    async with db.transaction() as session:
        await ledger.grant(session, workspace_id=workspace, amount=to_base(10))
        await ledger.charge_usage(
            session, workspace_id=workspace, amount=to_base(3), user_id=me, memo="a coworker"
        )
    page = (await client.get("/credits")).text
    chart = page[page.index('<figure class="chart" id="spend-chart">') :]
    assert "3 credits spent in the last 30 days" in chart[: chart.index("</figure>")]
    assert "Usage charge" in page  # the ledger's kind in words
