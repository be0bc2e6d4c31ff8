"""A long session in one page: thirty Dominoes rounds against the computer grow the Python heap by no more
than a few KB a round and hold no more JS objects at the end than early on. (Leaving and reloading while the
computer pauses is tested under CPython: tests/app/test_flows_pauses.py.)"""

from __future__ import annotations

import json

from .conftest import READY, READY_TIMEOUT_MS, local_storage, new_context, watch_page

ROUNDS = 30
WARM_UP = 5  # rounds before measuring: first imports, caches, the stats' first rows
MAX_GROWTH_PER_ROUND = 3_000  # bytes

# Runs Python in the page's interpreter (the one the app runs in) and returns its result as JSON text.
PY = "(code) => window.boneyardSnapshot.interpreter.runPython(code)"
HEAP = """
import gc, json, sys, tracemalloc
gc.collect()
json.dumps({"traced": tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None,
            "blocks": sys.getallocatedblocks()})
"""
JS_REFS = "() => window.boneyardSnapshot.interpreter._module._hiwire_num_refs()"
# Plays a round by clicking, as a person would, in one call: the first playable tile (at the left end when
# asked), else Draw, else Pass; waits for the computer in between. Returns the clicks made.
PLAY_ROUND = """async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let clicks = 0; clicks < 400; ) {
    if (document.querySelector('#over-title')) return clicks;
    if (!document.querySelector('.dom-table.is-my-turn')) { await sleep(5); continue; }
    const tile = document.querySelector('.dom-hand-tile.is-playable');
    if (tile) {
      tile.click();
      await sleep(5);  // the table redraws at the end of the click's task
      if (document.querySelector('button.dom-end.is-target')) document.querySelector('#end-L').click();
    } else {
      (document.querySelector('#draw:not([disabled])') || document.querySelector('#pass')).click();
    }
    clicks += 1;
    await sleep(5);
  }
  throw new Error('the round did not end');
}"""


def new_round(page) -> None:
    page.evaluate("location.hash = '#/setup/dominoes'")
    page.wait_for_selector("#start-game")
    page.click("#start-game")
    page.wait_for_selector(".dom-table")


def heap(page) -> dict:
    return json.loads(page.evaluate(PY, HEAP))


def test_thirty_rounds_in_one_page_leak_nothing(browser, base_url):
    from .conftest import Watch

    watch = Watch()
    context = new_context(browser, watch)
    page = context.new_page()
    watch_page(page, watch)
    page.goto(f"{base_url}/?seed=21#/setup/dominoes")
    page.wait_for_selector(READY, state="attached", timeout=READY_TIMEOUT_MS)
    page.wait_for_selector("#setup-mode")
    page.check("input[name=opponents][value=computer]")
    page.select_option("#setup-mode", "classic")
    for number in range(ROUNDS):
        if number == WARM_UP:
            page.evaluate(PY, "import tracemalloc; tracemalloc.start()")
            start, refs_start = heap(page), page.evaluate(JS_REFS)
        new_round(page)
        assert page.evaluate(PLAY_ROUND) > 0
        page.evaluate("location.hash = '#/'")
        page.wait_for_selector(".game-card")
    end, refs_end = heap(page), page.evaluate(JS_REFS)
    page.evaluate(PY, "import tracemalloc; tracemalloc.stop()")
    rounds = ROUNDS - WARM_UP
    growth = (end["traced"] - start["traced"]) / rounds
    print(
        f"\nPython heap: {growth:+.0f} bytes a round over {rounds} rounds "
        f"({end['blocks'] - start['blocks']:+d} blocks); JS objects held by Python: {refs_start} -> {refs_end}"
    )
    assert growth < MAX_GROWTH_PER_ROUND, f"the Python heap grew {growth:.0f} bytes a round"
    assert refs_end <= refs_start + 2, f"JS objects held by Python grew from {refs_start} to {refs_end}"
    stats = json.loads(local_storage(page)["boneyard:stats"])["stats"]
    assert sum(t["wins"] + t["losses"] + t["draws"] for t in stats["tallies"]) == ROUNDS
    watch.assert_clean(page)
    context.close()
