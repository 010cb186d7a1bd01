""""Share with the class" (classroom/share.py, deploy/public_url.py): the link with the page's settings, the public URL
that replaces the teacher's localhost, the QR code read back from its SVG, and the control on the pages through
app.py."""

import base64
import html
import re

import pytest
import segno
from helpers import APP, run, texts

from classroom import share
from deploy.public_url import ENV, is_loopback, parse_public_url

PUBLIC = "http://192.0.2.10:8501"  # an address of the documentation range (RFC 5737): never a real machine


# ------------------------------------------------------------------------------------ the public URL
@pytest.mark.parametrize("raw, expected", [
    ("http://192.168.1.20:8501", "http://192.168.1.20:8501"),
    ("  HTTP://192.168.1.20:8501/  ", "http://192.168.1.20:8501"),
    ("https://Lab.Example.edu/dp/", "https://lab.example.edu/dp"),
    ("http://[fe80::1]:8501", "http://[fe80::1]:8501"),
    ("http://10.0.0.5", "http://10.0.0.5"),
])
def test_a_good_public_url_is_written_one_way(raw, expected):
    assert parse_public_url(raw) == expected


@pytest.mark.parametrize("raw, words", [
    ("192.168.1.20:8501", "must start with http:// or https://; got '192.168.1.20:8501' (did you mean "
                          "http://192.168.1.20:8501?)"),
    ("ftp://192.168.1.20", "must start with http:// or https://"),
    ("localhost:8501", "must start with http:// or https://; got 'localhost:8501' (and not localhost: an address "
                       "students' phones can reach)"),
    ("", "must start with http:// or https://"),
    ("http://", "needs a host"),
    ("http://:8501", "needs a host"),
    ("http://localhost:8501", "not localhost (that names each phone itself)"),
    ("http://127.0.0.2:8501", "not 127.0.0.2"),
    ("http://[::1]:8501", "not ::1"),
    ("http://0.0.0.0:8501", "not 0.0.0.0"),
    ("http://lab.localhost", "not lab.localhost"),
    ("http://192.168.1.20:99999", "port must be a number from 1 to 65535"),
    ("http://192.168.1.20:eighty", "port must be a number from 1 to 65535"),
    ("http://teacher:secret@192.168.1.20", "cannot hold a user name or password"),
    ("http://192.168.1.20/?eps=1", "without ?… or #…"),
    ("http://192.168.1.20/#top", "without ?… or #…"),
    ("http://192.168.1.20/my lab", "cannot contain spaces"),
])
def test_a_bad_public_url_is_refused_saying_why(raw, words):
    with pytest.raises(ValueError) as refused:
        parse_public_url(raw)
    assert words in str(refused.value)


@pytest.mark.parametrize("host, loopback", [("localhost", True), ("LOCALHOST.", True), ("127.0.0.1", True),
                                            ("127.5.5.5", True), ("::1", True), ("[::1]", True), ("0.0.0.0", True),
                                            ("::", True), ("192.168.1.20", False), ("10.0.0.5", False),
                                            ("lab.example.edu", False), ("fe80::1", False)])
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_the_public_url_from_the_environment():
    assert share.public_url({}) == (None, None)
    assert share.public_url({ENV: " "}) == (None, None)
    assert share.public_url({ENV: PUBLIC + "/"}) == (PUBLIC, None)
    url, problem = share.public_url({ENV: "localhost:8501"})
    assert url is None and problem.startswith(f"The lab's public URL ({ENV}) is not used: the public URL must start")


# ------------------------------------------------------------------------------------ the link
def test_the_link_keeps_the_settings_and_leaves_out_the_projectors_teachers_and_polls_keys():
    query = {"eps": "0.5", "present": "1", "teacher": "1", "reveal": "1", "room": "K7QX2", "n": "1000", "seed": "7",
             "embed": "true", "frame_truncation_rate": "0.5"}
    assert share.share_link("http://localhost:8501/truncation-bias", share.page_settings(query)) == \
        "http://localhost:8501/truncation-bias?eps=0.5&n=1000&seed=7&frame_truncation_rate=0.5"
    assert share.share_link("http://localhost:8501/truncation-bias", share.page_settings({"present": "1"})) == \
        "http://localhost:8501/truncation-bias"
    # a class poll's join link is made with its room on purpose
    assert share.share_link("http://localhost:8501/truncation-bias", {"room": "K7QX2"}) == \
        "http://localhost:8501/truncation-bias?room=K7QX2"


def test_one_list_says_which_url_keys_are_not_the_page_s_settings():
    """classroom.share cannot import the modules that name these keys (they import it): the list follows their
    names."""
    from classroom import embed, poll
    from ui import chrome, page

    assert set(share.NOT_SETTINGS) == {share.PRESENT, chrome.TEACHER, page.REVEAL, poll.ROOM, embed.EMBED,
                                       "embed_options"}


def test_the_public_url_replaces_the_browsers_scheme_and_host_and_keeps_the_page():
    browser = "http://127.0.0.1:8501/privacy-audit-lab"
    assert share.share_link(browser, {"eps": "2"}, PUBLIC) == f"{PUBLIC}/privacy-audit-lab?eps=2"
    assert share.share_link(browser, {}, "https://lab.example.edu/dp") == "https://lab.example.edu/dp/privacy-audit-lab"
    # the server's own base path (server.baseUrlPath) gives way to the public URL's
    assert share.share_link("http://127.0.0.1:8501/lab/truncation-bias", {}, PUBLIC, base_path="/lab/") == \
        f"{PUBLIC}/truncation-bias"
    assert share.share_link("http://127.0.0.1:8501/lab/truncation-bias", {}, None, base_path="lab") == \
        "http://127.0.0.1:8501/lab/truncation-bias"


def test_the_link_encodes_odd_values_and_repeated_keys():
    link = share.share_link("http://localhost:8501/", {"eps": "<b>1</b>", "note": ["a b", "c&d"]}, PUBLIC)
    assert link == f"{PUBLIC}/?eps=%3Cb%3E1%3C%2Fb%3E&note=a+b&note=c%26d"


def test_the_short_address_is_the_link_without_its_settings():
    assert share.short_address(f"{PUBLIC}/truncation-bias?eps=0.5") == f"{PUBLIC}/truncation-bias"
    assert share.short_address(f"{PUBLIC}/") == PUBLIC
    assert share.short_address("https://lab.example.edu/dp/?eps=1") == "https://lab.example.edu/dp/"


@pytest.mark.parametrize("link, warned", [("http://localhost:8501/", "localhost"),
                                          ("http://127.0.0.1:8600/x", "127.0.0.1"), (f"{PUBLIC}/x", None),
                                          ("https://lab.example.edu/", None)])
def test_a_warning_when_the_code_would_send_phones_to_localhost(link, warned):
    port = {"localhost": 8501, "127.0.0.1": 8600}.get(warned)
    if warned is None:
        assert share.loopback_warning(link, ("10.1.2.3",)) is None
        return
    text = share.loopback_warning(link)
    assert text == (f"Students' phones cannot reach {warned}: this address means \"this device\" on every device, so "
                    "the QR code would send each phone to itself. Start the lab with `./lab.sh serve --public-url "
                    f"http://<this machine's address>:{port}` and open this page again.")
    one = share.loopback_warning(link, ("10.1.2.3",))
    assert f"`./lab.sh serve --public-url http://10.1.2.3:{port}`" in one and "seems to be" not in one
    two = share.loopback_warning(link, ("10.1.2.3", "192.168.1.20"))
    assert f"`./lab.sh serve --public-url http://<this machine's address>:{port}`" in two
    assert two.endswith("This machine's address on the network seems to be 10.1.2.3 or 192.168.1.20.")


# ------------------------------------------------------------------------------------ the QR code
def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules the SVG draws, row by row: its path of horizontal runs read back (``M x y`` starts, ``m dx
    dy`` moves, ``h n`` draws n modules at half a module below the row's top)."""
    size = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
    grid = [[False] * size for _ in range(size)]
    path = re.search(r'<path class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    x = y = 0.0
    for command, numbers in re.findall(r"([Mmh])([-\d. ]+)", path):
        values = [float(value) for value in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            assert y % 1 == 0.5 and x % 1 == 0 and values[0] % 1 == 0
            for column in range(int(x), int(x + values[0])):
                grid[int(y)][column] = True
            x += values[0]
    return grid


def matrix(link: str) -> list[list[bool]]:
    """segno's QR code of ``link`` with its quiet zone of four light modules all round, as the SVG draws it."""
    rows = [[False] * 4 + [bool(module) for module in row] + [False] * 4
            for row in segno.make(link, error="m", micro=False, boost_error=False).matrix]
    blank = [[False] * len(rows[0])] * 4
    return blank + rows + blank


def image_modules(block: str) -> list[list[bool]]:
    """The modules drawn by the one QR image (``<img class="dplab-qr" src="data:image/svg+xml;base64,…">``) of
    the HTML ``block``."""
    (data,) = re.findall(r'<img class="dplab-qr" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', block)
    return svg_modules(base64.b64decode(data).decode())


FINDER = [[True] * 7, [True, *[False] * 5, True], *[[True, False, True, True, True, False, True]] * 3,
          [True, *[False] * 5, True], [True] * 7]


@pytest.mark.parametrize("link", ["http://localhost:8501/",
                                  f"{PUBLIC}/truncation-bias?eps=0.5&n=1000&seed=7&mc=3&trials=200&moment=4",
                                  "https://lab.example.edu/dp/privacy-audit-lab?eps=0.01&mechanism=laplace"])
def test_the_svg_draws_the_qr_code_of_the_link(link):
    svg = share.qr_svg(link)
    code = segno.make(link, error="m", micro=False, boost_error=False)
    assert code.error == "M" and not code.is_micro
    drawn = svg_modules(svg)
    assert drawn == matrix(link) == image_modules(share.qr_image(link))
    assert f'alt="QR code of the address {html.escape(link)}"' in share.qr_image(link)
    size = 4 * code.version + 17  # a QR code of version v has 4v + 17 modules a side
    assert len(drawn) == size + 8  # and a quiet zone of 4 modules all round
    assert all(not any(row) for row in drawn[:4] + drawn[-4:])
    assert all(not any(row[:4]) and not any(row[-4:]) for row in drawn)
    inner = [row[4:-4] for row in drawn[4:-4]]
    assert inner == [[bool(module) for module in row] for row in code.matrix]
    for top, left in ((0, 0), (0, size - 7), (size - 7, 0)):  # the three finder patterns, independently of segno
        assert [row[left:left + 7] for row in inner[top:top + 7]] == FINDER
    # its text alternative is the address itself, and it scales to its box (no fixed width or height)
    assert f'role="img" aria-label="QR code of the address {html.escape(link)}"' in svg
    assert not re.search(r'<svg[^>]* (width|height)=', svg)


def test_a_longer_link_makes_a_larger_code_that_still_fits_a_phone_camera():
    short = share.qr_code("http://10.0.0.5:8501/")
    long = share.qr_code(f"{PUBLIC}/partitioning-rounds?eps=0.5&d=20&profile=uniform&n=1000&trials=200&seed=12&mc=3")
    assert short.version == 2 and 2 < long.version <= 10  # 25 and at most 57 modules a side: read from the back row


def test_the_share_html_shows_the_short_address_as_text_and_is_big_in_presentation_mode():
    link = f"{PUBLIC}/truncation-bias?eps=0.5"
    plain, present = share.share_html(link, False), share.share_html(link, True)
    assert '<div class="dplab-share">' in plain and '<div class="dplab-share present">' in present
    assert '<p class="dplab-share-address">http://<wbr>192.0.2.10<wbr>:8501/<wbr>truncation-bias</p>' in plain
    assert "it keeps this page's settings" in plain
    assert "Scan the code, or type:" in share.share_html(f"{PUBLIC}/", False)
    assert re.search(r"\.dplab-share\.present \.dplab-qr \{ width: min\(92vw, 52vh\)", present)


# ------------------------------------------------------------------------------------ the control on the pages
def shared(at):
    """The control's link (its code block), its SVG and its HTML; the warnings and errors shown."""
    blocks = [block.proto.body for block in at.get("html") if '<div class="dplab-share' in block.proto.body]
    links = [code.value for code in at.code]
    return links, blocks


def opened(**query):
    at = run(APP, answered=False, **query)
    assert not at.exception
    assert [box.label for box in at.expander][0] == "Share with the class: QR code and address"
    assert shared(at) == ([], [])  # built only when opened
    at.session_state[share.SHARE] = True
    return at.run()


def test_opened_on_the_home_page_it_shows_the_link_and_warns_about_localhost(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    at = opened(eps="0.5")
    links, blocks = shared(at)
    assert links == ["http://localhost:8501/?eps=0.5"]
    assert len(blocks) == 1 and 'alt="QR code of the address http://localhost:8501/?eps=0.5"' in blocks[0]
    assert image_modules(blocks[0]) == matrix("http://localhost:8501/?eps=0.5")
    assert '<div class="dplab-share">' in blocks[0]
    assert [text for text in texts(at.warning) if text.startswith("Students' phones cannot reach localhost")]
    assert not at.error


def test_with_a_public_url_the_code_holds_it_and_nothing_warns(monkeypatch):
    monkeypatch.setenv(ENV, PUBLIC)
    at = opened(eps="2", present="1", teacher="1")
    links, blocks = shared(at)
    assert links == [f"{PUBLIC}/?eps=2"]
    assert f'alt="QR code of the address {PUBLIC}/?eps=2"' in blocks[0]
    assert image_modules(blocks[0]) == matrix(f"{PUBLIC}/?eps=2")
    assert '<div class="dplab-share present">' in blocks[0]  # big on the projector
    assert '<p class="dplab-share-address">http://<wbr>192.0.2.10<wbr>:8501</p>' in blocks[0]
    assert not at.warning and not at.error


def test_the_class_link_holds_only_the_page_s_settings_never_a_mode_or_a_poll_room(monkeypatch):
    """Opened on a projector's page during a poll: the page's settings and a chart's frame go to the class, never the
    viewer's keys nor the poll's room (the room has its own QR code, and ends)."""
    monkeypatch.setenv(ENV, PUBLIC)
    at = opened(eps="2", frame_home_densities="0.2", reveal="1", room="K7QX2", teacher="1", present="1")
    assert shared(at)[0] == [f"{PUBLIC}/?eps=2&frame_home_densities=0.2"]


def test_a_bad_public_url_is_said_and_the_browsers_address_used(monkeypatch):
    monkeypatch.setenv(ENV, "ftp://lab")
    at = opened()
    assert shared(at)[0] == ["http://localhost:8501/?eps=1"]
    assert texts(at.error) == [f"The lab's public URL ({ENV}) is not used: the public URL must start with http:// or "
                               "https://; got 'ftp://lab'."]


def test_the_link_follows_a_control_moved_in_this_run(monkeypatch):
    """The control is drawn after the page has written its settings into the URL: the link of the run that moved
    ε already has the new ε."""
    monkeypatch.setenv(ENV, PUBLIC)
    at = opened(eps="0.5")
    at.select_slider(key="w_eps").set_value(3.0).run()
    assert shared(at)[0] == [f"{PUBLIC}/?eps=3"]


def test_on_a_topic_page_the_link_names_the_page_and_its_settings(monkeypatch):
    monkeypatch.setenv(ENV, PUBLIC)
    at = run(APP, answered=False)
    at.switch_page("app_pages/truncation.py").run()
    at.session_state[share.SHARE] = True
    at.run()
    assert not at.exception
    (link,), _ = shared(at)
    assert link.startswith(f"{PUBLIC}/truncation-bias?")
    assert "eps=" in link and "seed=" in link
