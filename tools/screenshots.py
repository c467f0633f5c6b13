"""Screenshots of the main pages (``make screenshots``): gallery, agent, a job in each state a
person meets (running, needs your input, completed, failed, cancelled), inbox, credits,
schedules, an organization, the developer pages and the operator's console, at 1280x800 and
390x844, light and dark, into docs/web/ (``<page>-<desktop|phone>-<light|dark>.png``).

It starts ``agora serve`` on a fresh data directory with the demo on (embedded SQLite, the demo
agents), signs in as the demo user (the banner's magic link), makes one of everything, and
drives Debian's Chromium through Playwright (no download, nothing from another origin). The
demo agents finish at once, so for the running job it also serves a "Translator" on loopback
(Agora's sandbox agent, running for 30 minutes) and registers it with the CLI. With
``--base URL --magic URL`` it uses a running server instead, without the running job
(registering the Translator needs the server's environment).

    .venv/bin/python tools/screenshots.py [--out docs/web] [--only gallery,agent]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from agora.sandbox.host import free_port, serve_in_thread
from agora.sandbox.protocol import AgentJob, Behaviour, Step, build_agent_app

CHROMIUM = "/usr/bin/chromium"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
THEMES = ("light", "dark")
ROOT = Path(__file__).resolve().parent.parent
HIRE_TEXT = "#hire-form textarea, #hire-form input[type=text]"  # the hire form's text field


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@contextmanager
def _server(data: Path) -> Iterator[tuple[str, str, dict[str, str]]]:
    """``agora serve`` with the demo on: (base URL, the demo sign-in link, its environment)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGORA_")}
    env.update(
        AGORA_DATA_DIR=str(data),
        AGORA_SECRET_KEY="screenshots-only-secret",
        AGORA_DEMO="true",
        AGORA_WELCOME_CREDITS="100000000",
        AGORA_PASSWORD_HASH_PROFILE="test",
        AGORA_RATE_LIMIT_PUBLIC="off",
        AGORA_RATE_LIMIT_AUTHENTICATED="off",
        AGORA_LOG_LEVEL="WARNING",
        AGORA_OUTBOUND_ALLOW="127.0.0.0/8,::1/128",
    )
    banner = data / "banner.txt"
    with banner.open("w") as out:
        process = subprocess.Popen(  # noqa: S603 (our own interpreter and module)
            [sys.executable, "-m", "agora.cli.main", "serve", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        magic = ""
        while time.monotonic() < deadline and not magic:
            time.sleep(0.5)
            if process.poll() is not None:
                raise SystemExit(f"agora serve stopped:\n{banner.read_text()}")
            found = re.search(r"Demo sign-in link[^\n]*?(http://\S+)", banner.read_text())
            magic = found.group(1) if found else ""
        while time.monotonic() < deadline and not _healthy(port):
            time.sleep(0.5)
        if not magic:
            raise SystemExit("agora serve printed no demo sign-in link in 120 s")
        yield f"http://127.0.0.1:{port}", magic, env
    finally:
        process.terminate()
        process.wait(timeout=30)


def _operator(env: dict[str, str]) -> None:
    """The demo user becomes an operator (an admin key: the console's rule)."""
    subprocess.run(
        [sys.executable, "-m", "agora.cli.main", "keys", "create", "--user", "demo@agora.local",
         "--kind", "admin", "--json"],
        env=env, check=True, capture_output=True, timeout=60,
    )  # fmt: skip


TRANSLATOR_SCHEMA = {
    "input_data": [
        {
            "id": "text",
            "type": "textarea",
            "name": "Text to translate",
            "validations": [
                {"validation": "min", "value": "1"},
                {"validation": "max", "value": "5000"},
            ],
        },
        {
            "id": "language",
            "type": "option",
            "name": "Into",
            "data": {"values": ["German", "French", "Spanish", "Japanese"]},
        },
    ]
}
RUNNING_FOR = 30 * 60  # seconds: longer than the screenshots take


def _translate(job: AgentJob) -> Step:
    """Running until the job is ``RUNNING_FOR`` old (the screenshots' running job)."""
    if time.time() - job.created < RUNNING_FOR:
        return Step("running")
    return Step("completed", result=f"({job.input_data.get('language')}) {job.input_data['text']}")


# A MIP-003 agent that stays running, served on loopback beside the app (``main``).
TRANSLATOR = Behaviour("translator", TRANSLATOR_SCHEMA, _translate)


def _register(env: dict[str, str], url: str) -> str:
    """The Translator in the marketplace (verified, free): its agent id."""
    done = subprocess.run(  # noqa: S603 (our own interpreter and module; our URL)
        [sys.executable, "-m", "agora.cli.main", "agents", "register", url, "--name", "Translator",
         "--description", "Translates a text into German, French, Spanish or Japanese.",
         "--price", "0", "--category", "writing", "--tag", "translation", "--verify", "--json"],
        env=env, check=True, capture_output=True, timeout=60, text=True,
    )  # fmt: skip
    return str(json.loads(done.stdout)["agentId"])


def _setup(page: Page, base: str, magic: str, translator: str | None) -> dict[str, str]:
    """Sign in, hire the demo agents (and the Translator, ``translator`` its agent id), make an
    organization and a schedule: the pages' paths."""
    page.goto(magic)
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r".*/agents.*"))
    paths = {"gallery": "/agents", "inbox": "/notifications", "credits": "/credits",
             "schedules": "/schedules", "developer": "/developer", "console": "/admin",
             "design": "/design", "history": "/history",
             "settings": "/settings/appearance"}  # fmt: skip
    page.goto(f"{base}/agents?q=echo")
    page.click(".cards .agent h2 a")
    paths["agent"] = page.url.removeprefix(base)
    page.fill(HIRE_TEXT, "A short essay on lanterns.")
    page.click("#hire-form button[type=submit]")
    page.wait_for_selector("#job-status[data-status=COMPLETED]", timeout=60_000)
    paths["job-completed"] = page.url.removeprefix(base)
    page.goto(f"{base}/agents")
    reviewer = page.locator(".cards .agent", has_text="Reviewer").locator("h2 a")
    if reviewer.count():
        reviewer.first.click()
        paths["agent-form"] = page.url.removeprefix(base)
        field = page.locator(HIRE_TEXT).first
        field.fill("Please review my essay on lanterns.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status[data-status=INPUT_REQUIRED]", timeout=60_000)
        paths["job-input-required"] = page.url.removeprefix(base)
        page.goto(base + paths["agent-form"])
        page.locator(HIRE_TEXT).first.fill("Another one.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status[data-status=INPUT_REQUIRED]", timeout=60_000)
        page.once("dialog", lambda dialog: dialog.accept())  # "Cancel this job?"
        page.click("button:has-text('Cancel the job')")
        page.wait_for_selector("#job-status[data-status=CANCELLED]", timeout=60_000)
        paths["job-cancelled"] = page.url.removeprefix(base)
        page.goto(base + paths["agent-form"])
        page.locator(HIRE_TEXT).first.fill("A short story about a lighthouse keeper.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status[data-status=INPUT_REQUIRED]", timeout=60_000)
        page.check("#input-form input[type=radio][value=false]")  # "Approve…?" No: it fails
        page.fill("#input-form input[type=text]", "Too short; please say more about the light.")
        page.click("#input-form button[type=submit]")
        page.wait_for_selector("#job-status[data-status=FAILED]", timeout=60_000)
        paths["job-failed"] = page.url.removeprefix(base)
    if translator is not None:
        page.goto(f"{base}/agents/{translator}")
        page.fill("#hire-form textarea", "The lanterns were lit one by one along the river.")
        page.select_option("#hire-form select", "French")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status[data-status=RUNNING]", timeout=60_000)
        paths["job-running"] = page.url.removeprefix(base)
    page.goto(f"{base}/organizations")
    page.fill("#org-name", "Lantern Works")
    page.click("main button[type=submit]")
    page.wait_for_selector("#members")
    paths["organization"] = page.url.removeprefix(base)
    return paths


def shoot(
    base: str,
    magic: str,
    out: Path,
    only: set[str],
    env: dict[str, str] | None,
    translator: str | None,
) -> int:
    """Every page, each size and theme; ``env`` the server's environment (None: a running
    server's, unknown), ``translator`` the Translator's agent id (None: no running job)."""
    out.mkdir(parents=True, exist_ok=True)
    taken = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(30_000)
        paths = _setup(page, base, magic, translator)
        if env is not None:
            _operator(env)
        host = base.split("//", 1)[1].split(":")[0]
        for theme in THEMES:
            context.add_cookies(
                [{"name": "agora_theme", "value": theme, "domain": host, "path": "/"}]
            )
            for name, path in paths.items():
                if only and name not in only:
                    continue
                for size, (width, height) in SIZES.items():
                    page.set_viewport_size({"width": width, "height": height})
                    page.goto(base + path)
                    page.wait_for_load_state("load")
                    page.screenshot(path=str(out / f"{name}-{size}-{theme}.png"))
                    taken += 1
        _weigh(page, base, paths["agent"])
        browser.close()
    return taken


def _weigh(page: Page, base: str, path: str) -> None:
    """The agent page's weight (docs/web.md): its HTML and the CSS and JS it loads, as sent."""
    page.goto(base + path)
    sizes = {"HTML": len(page.request.get(base + path).body())}
    for kind, selector, attr in (
        ("CSS", "link[rel=stylesheet]", "href"),
        ("JS", "script[src]", "src"),
    ):
        urls = page.eval_on_selector_all(selector, f"els => els.map(e => e.{attr})")
        sizes[kind] = sum(len(page.request.get(url).body()) for url in urls)
    total = sum(sizes.values())
    parts = ", ".join(f"{k} {v / 1024:.1f} KiB" for k, v in sizes.items())
    print(f"agent page weight: {total / 1024:.1f} KiB ({parts}; uncompressed)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web")
    parser.add_argument("--only", default="", help="comma-separated page names")
    parser.add_argument("--base", help="a running server (then also --magic)")
    parser.add_argument("--magic", help="its demo sign-in link")
    args = parser.parse_args()
    only = {n for n in args.only.split(",") if n}
    if args.base:
        print("no job-running: registering the Translator needs the server's environment")
        taken = shoot(args.base, args.magic, args.out, only, None, None)
    else:
        with (  # the Translator outlives the server that polls it
            serve_in_thread(build_agent_app(TRANSLATOR), "translator") as url,
            tempfile.TemporaryDirectory(prefix="agora-shots-") as tmp,
            _server(Path(tmp)) as (base, magic, env),
        ):
            taken = shoot(base, magic, args.out, only, env, _register(env, url))
    print(f"{taken} screenshots in {args.out}")


if __name__ == "__main__":
    main()
