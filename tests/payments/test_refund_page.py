"""The job page's refund button (issue 31), through HTTP on both databases, with a real Masumi
seller and the local payment node on loopback: a completed paid job shows the contract's window
(unlockTime) and the button; pressing it asks the refund (PRG) and the page then says why no
second one can be asked."""

from __future__ import annotations

import httpx2

from agora.settings import Settings
from tests.accounts.helpers import last_link
from tests.payments.helpers import Node, PaidJobs, on_chain, status
from tests.web.test_pages import _csrf


async def _sign_in_by_link(client: httpx2.AsyncClient, settings: Settings, email: str) -> None:
    asked = await client.post("/magic-link/request", data={"csrf": "", "email": email})
    assert asked.status_code == 303
    _, token = last_link(settings, email, "sign-in link")
    signed = await client.post("/magic-link", data={"csrf": "", "token": token})
    assert signed.status_code == 303, signed.text


async def test_the_refund_button_within_the_window_then_the_reason_no_second_one(
    paid_job: PaidJobs, node: Node, client: httpx2.AsyncClient, settings: Settings
) -> None:
    job = await paid_job()
    await _sign_in_by_link(client, settings, job.user.email)
    running = await client.get(f"/jobs/{job.id}")
    assert running.status_code == 200
    await job.until(status("COMPLETED"))
    page = await client.get(f"/jobs/{job.id}")
    assert 'id="refund"' in page.text and 'id="refund-button"' in page.text
    assert "(unlockTime) you can dispute it" in page.text
    asked = await client.post(f"/jobs/{job.id}/refund", data={"csrf": _csrf(page.text)})
    assert asked.status_code == 303 and asked.headers["location"].endswith("?refund=asked")
    after = await client.get(asked.headers["location"])
    assert 'id="refund-asked"' in after.text and 'id="refund-button"' not in after.text
    assert "already has a refund pending" in after.text
    assert "refund_requested" in await job.event_types()
    # A second press (an old page): refused in the refund card, with the summary.
    again = await client.post(f"/jobs/{job.id}/refund", data={"csrf": _csrf(page.text)})
    assert again.status_code == 409
    assert 'class="error-summary"' in again.text and "already has a refund pending" in again.text
    await job.until(on_chain("Disputed"))
