"""Headless Debian chromium driven by Playwright, for the viewer's tests and bench: the
launch flags, and pages that collect their console errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def launch(playwright: Any) -> Any:
    """Debian's chromium (never a downloaded browser)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


@dataclass
class Viewer:
    """A page showing the viewer, and the errors its console reported."""

    page: Any
    errors: list[str] = field(default_factory=list)

    def api(self, expression: str) -> Any:
        return self.page.evaluate(f"window.botarenaView.{expression}")


def open_viewer(browser: Any, url: str, *, ready: bool = True) -> Viewer:
    """Open `url` in a fresh page; with `ready`, wait until the viewer (or its refusal) is up."""
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    viewer = Viewer(page)
    page.on(
        "console",
        lambda message: viewer.errors.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: viewer.errors.append(str(error)))
    page.goto(url)
    if ready:  # polled from outside: wait_for_function evals in the page, which a CSP forbids
        waited = 0
        while not page.evaluate("window.botarenaView !== undefined"):
            if waited >= 20_000:
                raise TimeoutError(f"{url}: the viewer did not start within 20 s")
            page.wait_for_timeout(50)
            waited += 50
    return viewer
