"""The page updated by region (js/morph.js): a render keeps the nodes that stay. On one shared page: the
morph itself (keys, positions, attributes, form controls, kept canvases, held regions), then the app
with it: after a Dominoes move and the computer's reply most of the page's elements are the same nodes,
each is one render, a focused control keeps its focus, a field being typed in keeps its caret, and
Bonefall's canvas survives a redraw."""

from __future__ import annotations

import json

from .test_dominoes import start, take_turn, wait_for_human_or_end

# Morphs a scratch element of the page from `before` to `after`; returns the counts and, for each
# element of `before` marked data-t, whether it is still in the scratch element (kept) and its markup.
MORPH = """([before, after, options]) => {
  let box = document.getElementById('morph-scratch');
  if (!box) { box = document.createElement('div'); box.id = 'morph-scratch'; document.body.appendChild(box); }
  box.innerHTML = before;
  const marked = [...box.querySelectorAll('[data-t]')].map((e) => [e.getAttribute('data-t'), e]);
  const counts = window.boneyardMorph(box, after, options || {});
  const kept = {};
  for (const [name, e] of marked) kept[name] = box.contains(e);
  return {counts, kept, html: box.innerHTML};
}"""


def morph(page, before: str, after: str, options: dict | None = None) -> dict:
    return page.evaluate(MORPH, [before, after, options or {}])


def test_keyed_children_are_moved_not_made_again(app_page):
    out = morph(
        app_page,
        '<ul><li id="a" data-t="a">A</li><li data-key="b" data-t="b">B</li><li data-key="c" data-t="c">C</li></ul>',
        '<ul><li data-key="c">C</li><li id="a" class="x">A!</li><li data-key="d">D</li></ul>',
    )
    assert out["kept"] == {"a": True, "b": False, "c": True}
    assert (
        out["html"] == '<ul><li data-key="c">C</li><li id="a" class="x">A!</li><li data-key="d">D</li></ul>'
    )
    assert out["counts"] == {"kept": 3, "created": 1, "removed": 1}


def test_a_keyed_control_in_a_new_wrapper_stays_itself_and_keeps_the_focus(app_page):
    out = app_page.evaluate(
        """() => { const box = document.createElement('div'); document.body.appendChild(box);
        box.innerHTML = '<button id="go" data-t="go">Go</button><p>after</p>';
        const go = box.querySelector('#go'); go.focus();
        window.boneyardMorph(box, '<div class="bar"><span>a</span><button id="go" class="on">Go!</button></div><p>after</p>');
        const out = [box.querySelector('#go') === go, document.activeElement === go, box.innerHTML];
        box.remove(); return out; }"""
    )
    assert out == [
        True,
        True,
        '<div class="bar"><span>a</span><button id="go" class="on">Go!</button></div><p>after</p>',
    ]


def test_unkeyed_children_match_by_position_and_tag(app_page):
    out = morph(
        app_page,
        '<p data-t="p" title="old">one</p><span data-t="s">two</span>',
        '<p lang="en">one, two</p><div>new</div>',
    )
    assert out["kept"] == {"p": True, "s": False}
    assert out["html"] == '<p lang="en">one, two</p><div>new</div>'


def test_an_id_with_a_new_data_key_is_a_new_node(app_page):
    """The "+15" of a scoring lay keeps its id but is new for each score, so its pop plays again."""
    out = morph(
        app_page,
        '<span id="pts" data-key="1:3" data-t="p">+10</span>',
        '<span id="pts" data-key="1:4">+5</span>',
    )
    assert out["kept"] == {"p": False}


def test_svg_is_patched_in_its_namespace(app_page):
    out = app_page.evaluate(
        """(m) => { const box = document.createElement('div'); document.body.appendChild(box);
        box.innerHTML = '<svg viewBox="0 0 10 10"><g data-key="1-1" class="tile"><rect width="2"/></g></svg>';
        const g = box.querySelector('g');
        window.boneyardMorph(box, '<svg viewBox="0 0 20 10"><g data-key="2-1"><rect/></g><g data-key="1-1" class="tile latest"><rect width="3"/></g></svg>');
        const gs = [...box.querySelectorAll('g')];
        const out = {same: gs[1] === g, ns: gs.every((e) => e.namespaceURI === 'http://www.w3.org/2000/svg'),
                     cls: g.getAttribute('class'), width: g.firstChild.getAttribute('width'),
                     box: box.firstChild.getAttribute('viewBox')};
        box.remove(); return out; }"""
    )
    assert out == {"same": True, "ns": True, "cls": "tile latest", "width": "3", "box": "0 0 20 10"}


def test_canvases_and_elements_marked_keep_are_left_to_their_owner(app_page):
    out = app_page.evaluate(
        """() => { const box = document.createElement('div'); document.body.appendChild(box);
        box.innerHTML = '<canvas id="c" width="240"></canvas><div data-morph="keep"><b>old</b></div>';
        const c = box.querySelector('canvas'); c.width = 999; c.style.width = '99px';
        box.querySelector('b').textContent = 'drawn';
        window.boneyardMorph(box, '<canvas id="c" width="240"></canvas><div data-morph="keep"><i>markup</i></div>');
        const out = {same: box.querySelector('canvas') === c, width: c.width, style: c.style.width,
                     kept: box.querySelector('[data-morph]').innerHTML};
        box.remove(); return out; }"""
    )
    assert out == {"same": True, "width": 999, "style": "99px", "kept": "<b>drawn</b>"}


def test_a_field_being_typed_in_keeps_its_value_and_caret_unless_the_markup_changes_it(app_page):
    out = app_page.evaluate(
        """() => { const box = document.createElement('div'); document.body.appendChild(box);
        const html = (v, c) => `<input id="f" type="text" value="${v}"><input id="g" type="checkbox"${c}>`;
        box.innerHTML = html('An', '');
        const f = box.querySelector('#f'); f.focus(); f.value = 'Anna'; f.setSelectionRange(1, 2);
        window.boneyardMorph(box, html('An', ' checked'));  // the markup says what it said: the typing stays
        const typed = [document.activeElement === f, f.value, f.selectionStart, f.selectionEnd,
                       box.querySelector('#g').checked];
        window.boneyardMorph(box, html('', ''));  // the markup clears it (a chat message sent)
        const cleared = [document.activeElement === f, f.value, box.querySelector('#g').checked];
        box.remove(); return {typed, cleared}; }"""
    )
    assert out == {"typed": [True, "Anna", 1, 2, True], "cleared": [True, "", False]}


def test_a_select_follows_its_markup(app_page):
    out = app_page.evaluate(
        """() => { const box = document.createElement('div'); document.body.appendChild(box);
        const html = (s) => `<select id="s"><option value="a">A</option><option value="b"${s}>B</option></select>`;
        box.innerHTML = html('');
        const s = box.querySelector('select');
        window.boneyardMorph(box, html(' selected'));
        const out = [box.querySelector('select') === s, s.value];
        box.remove(); return out; }"""
    )
    assert out == [True, "b"]


def test_a_held_region_waits_for_its_release(app_page):
    out = app_page.evaluate(
        """() => { const box = document.createElement('div'); document.body.appendChild(box);
        box.innerHTML = '<div id="line" class="a"><p>old</p></div><p id="other">1</p>';
        const html = (c, w, n) => `<div id="line" class="${c}"><p>${w}</p></div><p id="other">${n}</p>`;
        window.boneyardMorph(box, html('b', 'new', 2), {hold: ['line']});
        const held = [box.innerHTML, window.boneyardMorph.held('line').className];
        window.boneyardMorph.release('line');
        const released = box.innerHTML;
        window.boneyardMorph(box, html('c', 'newer', 3), {hold: ['line']});
        window.boneyardMorph(box, html('d', 'newest', 4));  // a render meanwhile shows the newest
        const stale = window.boneyardMorph.release('line');
        const out = {held, released, stale, last: box.innerHTML};
        box.remove(); return out; }"""
    )
    assert out["held"] == ['<div id="line" class="a"><p>old</p></div><p id="other">2</p>', "b"]
    assert out["released"] == '<div id="line" class="b"><p>new</p></div><p id="other">2</p>'
    assert out["stale"] is False
    assert out["last"] == '<div id="line" class="d"><p>newest</p></div><p id="other">4</p>'


# Logs the app's renders (each is one morph of #app) with what each shows: whose turn, the tiles on the
# board, the seats' counts. Marks every element of the page.
LOG_RENDERS = """() => {
  if (!window.boneyardMorph.logged) {
    const morph = window.boneyardMorph;
    const logged = (root, html, options) => {
      const counts = morph(root, html, options);
      if (root.id === 'app') {
        const table = root.querySelector('.dom-table');
        const seats = [...root.querySelectorAll('.kit-seat-count')].map((e) => e.textContent).join(',');
        window.boneyardRenders.push(table
          ? `${table.dataset.turn}|${root.querySelectorAll('#table-board g.tile').length}|${seats}` : 'other');
      }
      return counts;
    };
    Object.assign(logged, morph, {logged: true});
    window.boneyardMorph = logged;
  }
  window.boneyardRenders = [];
}"""
MARK = "() => { window.boneyardMarked = new WeakSet(document.querySelectorAll('#app *')); }"
KEPT = """() => { const all = [...document.querySelectorAll('#app *')];
  return [all.filter((e) => window.boneyardMarked.has(e)).length, all.length]; }"""


def test_a_move_and_the_computers_reply_keep_most_of_the_page_in_one_render_each(app_page, base_url):
    page = app_page
    start(page, base_url, "classic", seed=7)
    shares, lays = [], 0
    for _ in range(12):
        wait_for_human_or_end(page)
        if page.locator("#kit-results, .overlay").count() or len(shares) == 4:
            break
        if not page.locator(".dom-hand-tile.is-playable").count():
            take_turn(page)  # a draw or a pass
            continue
        page.evaluate(LOG_RENDERS)
        page.evaluate(MARK)
        board = page.locator("#table-board g.tile").count()
        take_turn(page)
        wait_for_human_or_end(page)
        page.wait_for_timeout(300)  # nothing more comes after the reply
        log = page.evaluate("window.boneyardRenders")
        assert log, "the move was drawn"
        assert all(a != b for a, b in zip(log, log[1:], strict=False)), (
            f"a render that changed nothing: {log}"
        )
        if page.locator("#kit-results").count():
            break
        kept, total = page.evaluate(KEPT)
        shares.append(kept / total)
        drew = any(e.split("|")[2] != log[0].split("|")[2] for e in log[1:-1])  # the computer drew first
        if page.locator("#table-board g.tile").count() == board + 2 and not drew:  # it laid at once
            assert len(log) == 2, f"one render after the move, one after the reply: {log}"
            lays += 1
    assert lays, "the computer laid a tile at once at least once"
    assert shares and min(shares) >= 0.5, f"share of the page's elements kept: {shares}"
    print(json.dumps({"kept_shares": [round(s, 3) for s in shares]}))


def test_focus_stays_on_a_control_that_a_render_keeps(app_page):
    page = app_page
    wait_for_human_or_end(page)
    page.focus("#kit-mute")
    page.evaluate("window.boneyardMarked = document.activeElement; window.boneyardRenders = []")
    page.keyboard.press("Enter")  # mutes: a render that keeps the button
    page.wait_for_function("window.boneyardRenders.length > 0")
    assert (
        page.evaluate("document.activeElement === window.boneyardMarked && document.activeElement.id")
        == "kit-mute"
    )
    page.keyboard.press("Enter")  # and back


def test_a_field_being_typed_in_keeps_its_node_and_caret_through_a_render(app_page):
    page = app_page
    page.evaluate("location.hash = '#/settings'")
    page.wait_for_selector("#set-name")
    page.fill("#set-name", "Annabel")
    page.evaluate(
        "(() => { const f = document.querySelector('#set-name'); f.setSelectionRange(2, 2);"
        " window.boneyardMarked = f; window.boneyardRenders = []; })()"
    )
    # Another tab's settings change: this page renders again while the player is typing.
    page.evaluate("window.dispatchEvent(new StorageEvent('storage', {key: 'boneyard:settings'}))")
    page.wait_for_function("window.boneyardRenders.length > 0")
    got = page.evaluate(
        "(() => { const f = document.activeElement;"
        " return [f === window.boneyardMarked, f.value, f.selectionStart, f.selectionEnd]; })()"
    )
    assert got == [True, "Annabel", 2, 2]
    page.fill("#set-name", "")


def test_bonefalls_canvas_survives_a_render(app_page):
    page = app_page
    page.evaluate("location.hash = '#/setup/falling'")
    page.wait_for_selector("#start-game")
    page.click("#start-game")
    page.wait_for_selector("#fall-canvas")
    page.wait_for_timeout(300)
    page.evaluate("window.boneyardMarked = document.querySelector('#fall-canvas')")
    width = page.evaluate("window.boneyardMarked.width")
    page.keyboard.press("p")  # pause: the panel comes over the well, a render
    page.wait_for_selector("#fall-paused")
    assert page.evaluate("document.querySelector('#fall-canvas') === window.boneyardMarked")
    assert page.evaluate("window.boneyardMarked.width") == width
    page.keyboard.press("p")
    page.wait_for_selector("#fall-paused", state="detached")
    page.evaluate("location.hash = '#/'")
