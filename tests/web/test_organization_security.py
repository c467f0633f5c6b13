"""Issue 26, item 8: the web invitation form goes through the same role check as the API (one
service call): `role=superuser` is refused with a 400 and nothing is stored; an admin cannot
invite an owner from the web either."""

from __future__ import annotations

import httpx2

from agora.settings import Settings
from tests.web.test_pages import _sign_up_in


async def test_the_web_invitation_form_refuses_a_role_the_api_refuses(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "roles@example.com")
    made = await client.post("/organizations", data={"csrf": csrf, "name": "Role Works"})
    assert made.status_code == 303
    org_path = made.headers["location"]
    org_id = org_path.rsplit("/", 1)[1]
    headers = {"X-CSRF-Token": csrf}

    for role in ("superuser", "emperor", "OWNER", "admin "):
        refused = await client.post(f"{org_path}/invitations", data={"csrf": csrf, "role": role})
        assert refused.status_code == 400, (role, refused.text[:300])
        assert 'id="invite-link"' not in refused.text
        api = await client.post(
            f"/v1/organizations/{org_id}/invitations", json={"role": role}, headers=headers
        )
        assert api.status_code == 400 and api.json()["details"][0]["field"] == "role"
    stored = await client.get(f"/v1/organizations/{org_id}/invitations", headers=headers)
    assert stored.status_code == 200
    assert stored.json()["data"] == []

    accepted = await client.post(f"{org_path}/invitations", data={"csrf": csrf, "role": "admin"})
    assert accepted.status_code == 303  # PRG: the link is shown once, by the next page
    shown = await client.get(org_path)
    assert 'id="invite-link"' in shown.text
    assert 'id="invite-link"' not in (await client.get(org_path)).text
    roles = [i["role"] for i in (await client.get(
        f"/v1/organizations/{org_id}/invitations", headers=headers
    )).json()["data"]]  # fmt: skip
    assert roles == ["admin"]


async def test_owners_see_and_revoke_the_organizations_keys_on_its_page(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "keys-owner@example.com")
    made = await client.post("/organizations", data={"csrf": csrf, "name": "Key Works"})
    org_path = made.headers["location"]
    org_id = org_path.rsplit("/", 1)[1]
    orgs = (await client.get("/v1/organizations", headers={"X-CSRF-Token": csrf})).json()
    workspace_id = orgs["data"][0]["workspaceId"]
    key = await client.post(
        "/v1/api-keys",
        json={"name": "bound to the org", "workspaceId": workspace_id},
        headers={"X-CSRF-Token": csrf},
    )
    assert key.status_code == 201, key.text
    secret, key_id = key.json()["data"]["key"], key.json()["data"]["id"]
    page = await client.get(org_path)
    assert 'id="org-keys"' in page.text and "bound to the org" in page.text
    revoked = await client.post(f"{org_path}/keys/{key_id}/revoke", data={"csrf": csrf})
    assert revoked.status_code == 303
    assert (await client.get("/v1/projects", headers={"x-api-key": secret})).status_code == 401
    forged = await client.post(f"{org_path}/keys/{key_id}/revoke", data={"csrf": "nope"})
    assert forged.status_code == 403
    assert org_id in org_path
