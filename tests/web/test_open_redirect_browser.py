"""Finding 2 in Chromium: after signing in (or switching the language) the browser never leaves this site.

Browsers read ``/\\host`` as ``//host`` and drop tabs inside a URL, so each
crafted ``next`` below would land on evil.example if the server let it through.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.web.conftest import PageWatch

CRAFTED = ["/%5Cevil.example", "/%5C/evil.example", "/%09/evil.example", "//evil.example", "https://evil.example/",
           "/%0A/evil.example"]


@pytest.mark.parametrize("crafted", CRAFTED[:3])
def test_finding2_local_sign_in_and_the_continue_link_stay_on_this_site(
    server: str, page: PageWatch, crafted: str
) -> None:
    p = page.page
    here = urlsplit(server).netloc
    p.route("**/*", lambda route: route.abort() if "evil.example" in urlsplit(route.request.url).netloc
            else route.continue_())
    p.goto(f"{server}/signin?next={crafted}")
    p.fill("#local-name", "Redirect")
    with p.expect_navigation():
        p.click("#local-submit")
    assert urlsplit(p.url).netloc == here and urlsplit(p.url).path == "/lobby", p.url
    # signed in now: the sign-in page offers a "continue" link to the same crafted target
    p.goto(f"{server}/signin?next={crafted}")
    link = p.locator("#signed-in a.btn.primary")
    link.wait_for(state="visible")
    with p.expect_navigation():
        link.click()
    assert urlsplit(p.url).netloc == here, p.url


@pytest.mark.parametrize("crafted", CRAFTED)
def test_finding2_the_language_switch_stays_on_this_site(server: str, page: PageWatch, crafted: str) -> None:
    p = page.page
    p.route("**/*", lambda route: route.abort() if "evil.example" in urlsplit(route.request.url).netloc
            else route.continue_())
    p.goto(f"{server}/lang/en?next={crafted}")
    assert urlsplit(p.url).netloc == urlsplit(server).netloc and urlsplit(p.url).path == "/", p.url
