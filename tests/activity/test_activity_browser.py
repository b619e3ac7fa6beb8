"""The Activity's real page (web/dist, built by `npm run build`) in headless Chromium (Debian's
`chromium`, driven by Playwright; never a browser of Playwright's own), served by the real bot
against the Discord double, the SDK's own mock standing in for Discord's iframe side (issue 27).

Alice plays at the page, by taps and a drag, Bob by his DM buttons, until Alice drops through
the page's confirmation and the deal ends; Carol watches, and her page's connection never
receives a hidden card. Phone-size and desktop-size screenshots are saved for a person to look
at (`RUMMY_SCREENSHOTS`, else the test's own folder).

Without Chromium, Playwright or a built page these tests skip, saying why, unless
`RUMMY_REQUIRE_BROWSER` is set (CI sets it), when they fail instead.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest
from activity_helpers import CARD, activity_bot, strings
from aiohttp import web
from test_activity_shards import free_port, proxy
from test_discord_frontend import button, first_option, hand_message, open_table, select_id, start_table

from bot.service import ManualClock

pytestmark = pytest.mark.browser
pytest_plugins = ("discord_double.fixtures",)

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "web" / "dist"
CHROMIUM = os.environ.get("RUMMY_CHROMIUM", "/usr/bin/chromium")
# What the machine's closed network and a root user need (see .ci/run): no sandbox, no
# background connections, no first-run or sync.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if not (BUILT / "index.html").exists():
        return "the web client is not built (npm ci && npm run build in web/)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (the dev extra)"
    return None


def need_browser() -> None:
    """Skips, saying why, where Chromium, Playwright or the built page is missing; fails there
    instead with `RUMMY_REQUIRE_BROWSER` (CI)."""
    problem = missing()
    if problem is not None:
        if os.environ.get("RUMMY_REQUIRE_BROWSER"):
            pytest.fail(f"{problem}, and RUMMY_REQUIRE_BROWSER is set", pytrace=False)
        pytest.skip(problem)


@pytest.fixture
async def browser():
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:  # each launch has a new empty profile of its own
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("RUMMY_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


async def open_at(browser, double, base, user, size, frames=None):
    """The page as `user` would have it inside Discord, at `size`; `frames` collects what its
    live connection receives."""
    context = await browser.new_context(viewport=size, device_scale_factor=2 if size is PHONE else 1)
    page = await context.new_page()
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    code = double.authorization_code(user)
    where = f"guild={double.guild_id}&channel={double.channel_id}"
    await page.goto(f"{base}/?mock&code={code}&user={user.id}&{where}")
    return page


async def state_of(page) -> str:
    return await page.locator("header.status .what").inner_text()


async def settled(page) -> None:
    """Waits until every group of the hand shows the kind the engine judged it: the page's
    answer to a change has come and been drawn, so an element measured now stays in place."""
    await page.wait_for_function(
        "() => !document.querySelector('.hand .group:not(.new-group):not([data-kind])')"
    )


async def assert_readable_and_tappable(page) -> None:
    """Issue 27's phone: text 12 CSS px or more, and everything to tap 44 px or more each way."""
    small = await page.evaluate(
        """() => [...document.querySelectorAll('#app *')].filter((node) => {
            const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
            return own && parseFloat(getComputedStyle(node).fontSize) < 12;
        }).map((node) => node.outerHTML.slice(0, 80))"""
    )
    assert small == []
    tiny = await page.evaluate(
        """() => [...document.querySelectorAll('#app button')].filter((node) => {
            const box = node.getBoundingClientRect();
            return box.width < 44 || box.height < 44;
        }).map((node) => node.outerHTML.slice(0, 80))"""
    )
    assert tiny == []


async def both_sizes(page, shots: Path, name: str) -> None:
    """Screenshots at the phone's size (checked for sizes) and at a desktop's, back to the phone."""
    await page.wait_for_function("document.fonts.status === 'loaded'")  # the Hindi font, if shown
    await assert_readable_and_tappable(page)
    await page.screenshot(path=shots / f"phone-{name}.png")
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=shots / f"desktop-{name}.png")
    await page.set_viewport_size(PHONE)


async def alice_plays_a_turn(page, bot, table, *, drag: bool, look_at_declaring: Path | None = None) -> None:
    """Picks from the closed deck with a tap, then throws the card just picked: with a tap on
    it and on the open card, or dragged onto the open pile. `look_at_declaring` (a folder for
    its screenshot): first asks to declare, reads the confirmation (the groups, the engine's
    verdict, the cost) and cancels."""
    await page.locator("#pick-closed:not([disabled])").click()
    picked = page.locator(".hand .card.picked")
    await picked.wait_for()
    if look_at_declaring:
        await page.locator(".hand .group[data-kind]").first.wait_for()  # coloured by its kind
        await page.locator("#declare:not([disabled])").click()
        asked = await page.locator(".dialog").inner_text()
        assert "finish card?" in asked and "A wrong show costs" in asked, asked
        answers = await page.locator(".dialog .action").all_inner_texts()
        # As on Discord: the safe answer first, and a wrong show named as one with its price.
        assert answers[0] == "Keep playing", answers
        anyway = f"Declare anyway (−{table.rules.wrong_declaration})"
        assert ("This looks valid." in asked and answers[1] == "Yes, declare") or (
            "This is a wrong show:" in asked and answers[1] == anyway
        ), (asked, answers)
        await page.screenshot(path=look_at_declaring / "phone-declare.png")
        await page.locator("#confirm-no").click()
    if drag:
        await settled(page)
        box = await picked.bounding_box()
        pile = await page.locator("#open-pile").bounding_box()
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.down()
        await page.mouse.move(pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2, steps=8)
        await page.mouse.up()
    else:
        await picked.click()
        await page.locator("#pick-open:not([disabled])").click()
    await page.locator(".hand .card.picked").wait_for(state="detached")
    await bot.idle()


async def bob_plays_a_turn(double, bot) -> None:
    bob = double.user("bob")
    dm = hand_message(double, bob)
    await double.press_button(bob, dm, button(dm, "closed"))
    await bot.idle()
    dm = hand_message(double, bob)
    await double.select(bob, dm, select_id(dm), [first_option(dm)])
    await bot.idle()


async def test_a_deal_played_at_the_page_against_a_dm_player_to_its_end(
    discord_double, bot_runner, tmp_path, browser, shots
):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), BUILT))
    alice, bob, carol = double.user("alice"), double.user("bob"), double.user("carol")
    table = await start_table(double, bot, alice, bob)
    base = f"http://127.0.0.1:{bot.activity_port}"
    alice_frames: list[str] = []
    page = await open_at(browser, double, base, alice, PHONE, alice_frames)
    await page.locator(".hand .card").first.wait_for()
    watched: list[str] = []
    double.set_locale(carol, "hi")
    watcher = await open_at(browser, double, base, carol, DESKTOP, watched)
    await watcher.locator(".watching").wait_for()

    seat = table.seat_of(alice.id)
    turns = 0
    while turns < 4:
        if table.match.deal.turn == seat:
            await alice_plays_a_turn(
                page, bot, table, drag=turns % 2 == 1, look_at_declaring=shots if turns < 2 else None
            )
        else:
            before = len(alice_frames)
            await bob_plays_a_turn(double, bot)
            await page.locator("#pick-closed:not([disabled])").wait_for()
            assert len(alice_frames) > before
        turns += 1
    if table.match.deal.turn == seat:
        await alice_plays_a_turn(page, bot, table, drag=False)
    # Alice's connection drops (the server ends it) while Bob plays: her page reconnects by
    # itself and shows the table as it is now
    for viewer in list(bot.activity_server._viewers.get(double.channel_id, ())):
        if viewer.user_id == alice.id:
            await viewer.ws.close()
    await bob_plays_a_turn(double, bot)
    await page.locator("#pick-closed:not([disabled])").wait_for()
    await page.screenshot(path=shots / "phone-table.png")
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=shots / "desktop-table.png")
    await page.set_viewport_size(PHONE)
    await watcher.wait_for_function("document.fonts.status === 'loaded'")  # the Hindi font
    await watcher.screenshot(path=shots / "desktop-spectator-hindi.png")

    await assert_readable_and_tappable(page)

    # a card moved between groups by a tap on it and a tap on another group
    first_group = page.locator(".hand .group[data-group='0'] .card")
    moved = await first_group.first.get_attribute("data-card")
    await first_group.first.click()
    await page.locator(".hand .new-group").click()
    groups = await page.locator(".hand .group:not(.new-group)").count()
    assert (
        await page.locator(f".hand .group[data-group='{groups - 1}'] .card").first.get_attribute("data-card")
        == moved
    )
    # and dragged back into the first group
    await settled(page)
    card = page.locator(f".hand .card[data-card='{moved}']").first
    start, goal = await card.bounding_box(), await page.locator(".hand .group[data-group='0']").bounding_box()
    await page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(goal["x"] + goal["width"] - 4, goal["y"] + goal["height"] / 2, steps=8)
    await page.mouse.up()
    assert moved in await page.locator(".hand .group[data-group='0'] .card").evaluate_all(
        "(cards) => cards.map((card) => card.dataset.card)"
    )
    assert await page.locator(".hand .group:not(.new-group)").count() == groups - 1

    # Alice drops through the page's confirmation, which says the table's cost: the deal ends
    cost = (await bot.service.hand(table.id, alice.id)).legal.drop_cost
    during_the_deal = list(watched)  # its end shows every hand to everyone, as the channel does
    deal = table.match.deal
    shown_ever = {card.code for card in deal.open_pile} | {card.code for _, card in deal.discards}
    shown_ever |= {deal.cut_joker.code} if deal.cut_joker else set()
    hidden = {card.code for held in deal.seats for card in held.hand} - shown_ever
    await page.locator("#drop:not([disabled])").click()
    question = await page.locator(".dialog p").inner_text()
    assert f"{cost} points" in question
    await page.locator("#confirm-yes").click()
    await page.locator(".results td.won").wait_for()
    await bot.idle()
    assert table.match.history[0][seat] == cost
    totals = page.locator(".results tr.total td")
    assert await totals.nth(seat + 1).inner_text() == str(table.match.standings[seat])
    await page.set_viewport_size(DESKTOP)
    await page.screenshot(path=shots / "desktop-result.png")
    await watcher.locator(".results").wait_for()

    # during the deal, Carol's page received no card but public ones (the open pile's, the cut
    # joker's, each discard), and never a hand
    received = [json.loads(frame) for frame in during_the_deal if isinstance(frame, str)]
    assert len(received) > 4
    public = set()
    for frame in received:
        if frame.get("type") == "state" and (frame["table"] or {}).get("match"):
            shown = frame["table"]["match"]["deal"]
            if shown:
                public |= {shown["open_card"], shown.get("cut_joker")}
        for event in frame.get("events", []):
            if event.get("kind") in ("discarded", "picked") and event.get("card"):
                public.add(event["card"])
    seen = {text for frame in received for text in strings(frame) if CARD.match(text)}
    assert seen <= public and not seen & hidden
    assert not [frame for frame in received if frame.get("hand")]


async def test_the_lobby_and_a_result_in_english_and_hindi(
    discord_double, bot_runner, tmp_path, browser, shots
):
    """Alice hosts in English, Bob joins in Hindi at his page, adds a computer player and leaves
    again; Alice starts at hers and drops against the computer, and both pages show the result."""
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), BUILT))
    alice, bob = double.user("alice"), double.user("bob")
    await open_table(double, bot, alice)
    base = f"http://127.0.0.1:{bot.activity_port}"
    double.set_locale(bob, "hi")
    hers = await open_at(browser, double, base, alice, PHONE)
    his = await open_at(browser, double, base, bob, PHONE)
    await his.locator("#join:not([disabled])").click()
    await his.locator("#add-easy:not([disabled])").click()
    await hers.locator(".sitters li").nth(2).wait_for()
    await his.locator(".sitters li").nth(2).wait_for()
    assert "होस्ट" in await his.locator(".sitters li").first.inner_text()
    await both_sizes(his, shots, "lobby-hindi")
    await both_sizes(hers, shots, "lobby")
    # Bob leaves again, and watches: Alice plays the computer player, and drops at once
    await his.locator("#leave").click()
    await hers.locator(".sitters li").nth(2).wait_for(state="detached")
    await hers.locator("#start:not([disabled])").click()
    await hers.locator("#drop:not([disabled])").click()
    await hers.locator("#confirm-yes").click()
    for page in (hers, his):
        await page.locator(".results td.won").wait_for()
    await both_sizes(hers, shots, "result")
    await both_sizes(his, shots, "result-hindi")
    assert "नतीजे" in await his.locator(".results h2").inner_text()


async def test_a_forged_sign_in_is_refused_on_the_page(discord_double, bot_runner, tmp_path, browser):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), BUILT))
    base = f"http://127.0.0.1:{bot.activity_port}"
    context = await browser.new_context(viewport=PHONE)
    page = await context.new_page()
    where = f"guild={double.guild_id}&channel={double.channel_id}"
    await page.goto(f"{base}/?mock&code=forged&{where}")
    await page.get_by_text("Sign-in failed").wait_for()
    # Bob's sign-in on a page whose SDK names Alice: the token is another user's
    alice, bob = double.user("alice"), double.user("bob")
    await page.goto(f"{base}/?mock&code={double.authorization_code(bob)}&user={alice.id}&{where}")
    await page.get_by_text("Sign-in failed").wait_for()


async def test_a_page_a_misrouted_proxy_keeps_sending_elsewhere_stops_saying_so(
    discord_double, bot_runner, tmp_path, browser
):
    double = discord_double
    bot = await bot_runner.start(activity_bot(tmp_path, ManualClock(), BUILT))
    bot.activity_server.elsewhere = lambda guild_id: 1  # shard 1's, says every answer
    runner = web.AppRunner(proxy({0: bot.activity_port, 1: bot.activity_port}))  # `/shard/1/`: back here
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        frames: list[str] = []
        page = await open_at(browser, double, f"http://127.0.0.1:{port}", double.user("alice"), PHONE, frames)
        await page.get_by_text("The table cannot be reached now").wait_for()
        # the first hello, then three more sent elsewhere (the last two after a pause), and no more
        assert sum('"elsewhere"' in frame for frame in frames) == 4
    finally:
        await runner.cleanup()


def test_the_page_weighs_at_most_500_kb_gzipped_with_its_hindi_font_too():
    """Issue 27: the page at most 500 KB gzipped. The Hindi font (the pictures' own) is fetched
    only by a page that shows Devanagari, and keeps it under the limit as well."""
    need_browser()
    from render.fonts import DEVANAGARI, FONT_DIR

    page = sum(len(gzip.compress(path.read_bytes(), 9)) for path in BUILT.rglob("*") if path.is_file())
    font = len(gzip.compress((FONT_DIR / DEVANAGARI).read_bytes(), 9))
    print(f"the page: {page / 1000:.0f} KB gzipped, {(page + font) / 1000:.0f} KB with the Hindi font")
    assert page + font <= 500_000
