"""Issue 33: uploads through HTTP — streamed, bounded per file and per workspace, sniffed,
allow-listed, isolated per workspace; served safely (attachment, nosniff, CSP, ETag, ranges)."""

from __future__ import annotations

import hashlib

import httpx2

from tests.conftest import MakeUser, TestUser

PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f"
    b"\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)
PDF = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"


async def upload(
    client: httpx2.AsyncClient,
    user: TestUser,
    content: bytes,
    name: str = "doc.pdf",
    claimed: str = "application/pdf",
) -> httpx2.Response:
    return await client.post(
        "/v1/files", headers=user.key_headers, files={"file": (name, content, claimed)}
    )


async def test_upload_list_get_download_delete(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    answer = await upload(client, user, PDF, name="../../etc/report.pdf")
    assert answer.status_code == 201, answer.text
    data = answer.json()["data"]
    assert data["mimeType"] == "application/pdf"
    assert data["size"] == len(PDF)
    assert data["sha256"] == hashlib.sha256(PDF).hexdigest()
    assert data["name"] == "report.pdf"
    assert data["state"] == "stored" and data["origin"] == "upload"
    file_id = data["id"]

    listed = await client.get("/v1/files", headers=user.key_headers)
    assert [f["id"] for f in listed.json()["data"]] == [file_id]
    one = await client.get(f"/v1/files/{file_id}", headers=user.key_headers)
    assert one.json()["data"]["name"] == "report.pdf"

    content = await client.get(f"/v1/files/{file_id}/content", headers=user.key_headers)
    assert content.status_code == 200
    assert content.content == PDF
    assert content.headers["content-type"] == "application/pdf"
    assert content.headers["content-disposition"].startswith("attachment;")
    assert content.headers["x-content-type-options"] == "nosniff"
    assert "sandbox" in content.headers["content-security-policy"]
    etag = content.headers["etag"]
    assert etag == f'"{hashlib.sha256(PDF).hexdigest()}"'

    again = await client.get(
        f"/v1/files/{file_id}/content", headers={**user.key_headers, "If-None-Match": etag}
    )
    assert again.status_code == 304
    part = await client.get(
        f"/v1/files/{file_id}/content", headers={**user.key_headers, "Range": "bytes=0-3"}
    )
    assert part.status_code == 206
    assert part.content == PDF[:4]
    assert part.headers["content-range"] == f"bytes 0-3/{len(PDF)}"
    tail = await client.get(
        f"/v1/files/{file_id}/content", headers={**user.key_headers, "Range": "bytes=-6"}
    )
    assert tail.content == PDF[-6:]
    beyond = await client.get(
        f"/v1/files/{file_id}/content", headers={**user.key_headers, "Range": "bytes=9999-"}
    )
    assert beyond.status_code == 416

    deleted = await client.delete(f"/v1/files/{file_id}", headers=user.key_headers)
    assert deleted.status_code == 204
    gone = await client.get(f"/v1/files/{file_id}", headers=user.key_headers)
    assert gone.status_code == 404
    assert (await client.get("/v1/files", headers=user.key_headers)).json()["data"] == []


async def test_the_list_pages_newest_first_by_cursor(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    ids = []
    for i in range(5):
        answer = await upload(client, user, PDF, name=f"part-{i}.pdf")
        assert answer.status_code == 201, answer.text
        ids.append(answer.json()["data"]["id"])
    seen, cursor = [], None
    for _ in range(4):  # bounded: 5 files, pages of 2
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await client.get("/v1/files", params=params, headers=user.key_headers)).json()
        seen += [f["id"] for f in page["data"]]
        assert all(f["name"].startswith("part-") for f in page["data"])
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert seen == ids[::-1]
    bad = await client.get("/v1/files?cursor=nonsense", headers=user.key_headers)
    assert bad.status_code == 400 and "cursor" in bad.text


async def test_another_workspace_gets_404(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    owner, stranger = await make_user(), await make_user()
    file_id = (await upload(client, owner, PDF)).json()["data"]["id"]
    for method, path in (
        ("GET", f"/v1/files/{file_id}"),
        ("GET", f"/v1/files/{file_id}/content"),
        ("DELETE", f"/v1/files/{file_id}"),
    ):
        answer = await client.request(method, path, headers=stranger.key_headers)
        assert answer.status_code == 404, (method, path)
    assert (await client.get("/v1/files", headers=stranger.key_headers)).json()["data"] == []
    assert (await client.get(f"/v1/files/{file_id}", headers=owner.key_headers)).status_code == 200


async def test_html_claiming_png_is_refused(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    page = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"
    answer = await upload(client, user, page, name="cat.png", claimed="image/png")
    assert answer.status_code == 415
    assert "text/html" in answer.text
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'
    assert (await upload(client, user, svg, name="x.png", claimed="image/png")).status_code == 415
    assert (await client.get("/v1/files", headers=user.key_headers)).json()["data"] == []


async def test_png_is_previewed_inline_and_csv_is_text(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    png = (await upload(client, user, PNG, name="dot.bin", claimed="text/html")).json()["data"]
    assert png["mimeType"] == "image/png"
    served = await client.get(f"/v1/files/{png['id']}/content", headers=user.key_headers)
    assert served.headers["content-type"] == "image/png"
    assert served.headers["content-disposition"].startswith("inline;")
    csv = (await upload(client, user, b"a,b\n1,2\n", name="t.csv", claimed="image/png")).json()
    assert csv["data"]["mimeType"] == "text/csv"


async def test_size_limit_and_quota(
    settings: object, db: object, make_user: MakeUser, tmp_path: object
) -> None:
    from agora.app import create_app
    from agora.settings import Settings

    assert isinstance(settings, Settings)
    limited = settings.with_changes(files_max_bytes=1000, files_workspace_quota_bytes=1500)
    application = create_app(limited, db=db, migrate=False, background=False)  # type: ignore[arg-type]
    async with application.router.lifespan_context(application):
        transport = httpx2.ASGITransport(app=application)
        async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as client:
            user = await make_user()
            big = await upload(client, user, b"x" * 1001, name="a.txt", claimed="text/plain")
            assert big.status_code == 413
            assert (await upload(client, user, b"x" * 1000, name="a.txt")).status_code == 201
            over = await upload(client, user, b"y" * 600, name="b.txt")
            assert over.status_code == 413
            assert "quota" in over.text
            # far over the route's own limit: refused by the request's layer, never read whole
            huge = await upload(client, user, b"z" * 200_000, name="c.txt")
            assert huge.status_code == 413
            listed = (await client.get("/v1/files", headers=user.key_headers)).json()["data"]
            assert len(listed) == 1


async def test_bad_uploads_name_the_field(client: httpx2.AsyncClient, make_user: MakeUser) -> None:
    user = await make_user()
    wrong_part = await client.post(
        "/v1/files", headers=user.key_headers, files={"document": ("a.pdf", PDF, "application/pdf")}
    )
    assert wrong_part.status_code == 400
    assert "file" in wrong_part.text
    as_json = await client.post("/v1/files", headers=user.key_headers, json={"file": "x"})
    assert as_json.status_code == 415
    anonymous = await client.post("/v1/files", files={"file": ("a.pdf", PDF, "application/pdf")})
    assert anonymous.status_code == 401


async def test_deleting_an_organization_deletes_its_files_blobs(
    client: httpx2.AsyncClient, make_user: MakeUser, app: object
) -> None:
    owner = await make_user()
    org = await client.post(
        "/v1/organizations", json={"name": "Files Co"}, headers=owner.key_headers
    )
    assert org.status_code == 201, org.text
    in_org = {**owner.key_headers, "X-Workspace-Id": org.json()["data"]["workspaceId"]}
    kept = await upload(client, owner, PDF, name="mine.pdf")
    answer = await client.post(
        "/v1/files", headers=in_org, files={"file": ("org.pdf", PDF, "application/pdf")}
    )
    assert answer.status_code == 201, answer.text
    blobs = app.state.settings.data_dir / "files"  # type: ignore[attr-defined]
    assert len([p for p in blobs.rglob("*") if p.is_file()]) == 2
    gone = await client.delete(
        f"/v1/organizations/{org.json()['data']['id']}", headers=owner.key_headers
    )
    assert gone.status_code == 200, gone.text
    left = [p for p in blobs.rglob("*") if p.is_file()]
    assert len(left) == 1  # the personal workspace's file stays
    mine = await client.get(
        f"/v1/files/{kept.json()['data']['id']}/content", headers=owner.key_headers
    )
    assert mine.content == PDF
