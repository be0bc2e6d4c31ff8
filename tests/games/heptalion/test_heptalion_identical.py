"""Hard's and Expert's search (``DeepSearcher``) search exactly as recorded: a faster search, the same play.

The digest covers, for every 10th of the bench's 150 fixed positions (2-4 players, visible and hidden hands),
Hard's move and, per deal searched, the search's move, node count and every root score, and the same for
Expert's first two decisions. Hard's part was recorded with the search before its placements were packed
into ints (commit 00f9467), Expert's with its leaf weighing the room only one side reaches (``EXPERT_LEAF``);
``tools/heptalion_bench.py --part digest`` compares all 150 and Expert's 40 the same way.
"""

from __future__ import annotations

from tools.heptalion_bench import fixed_positions, search_digest

RECORDED = "b02f02fb69c9e36b"  # Hard alone (expert=0): 2e216f5190d56d39, unchanged by EXPERT_LEAF


def test_the_search_is_unchanged_move_for_move_node_for_node():
    """The searches over the fixed positions make the recorded moves with the recorded nodes and scores."""
    assert search_digest(fixed_positions(150)[::10], expert=2) == RECORDED
