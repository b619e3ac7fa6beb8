"""Cards as other processes see them."""

import os
import pickle
import subprocess
import sys
from collections import Counter

from bot.engine.cards import build_shoe, parse_cards


def test_cards_pickled_by_a_process_with_another_hash_seed_meet_local_cards_in_sets():
    """A computer player's worker hashes strings with its own seed; the cards it is sent (and
    sends back) must still match the cards it makes itself."""
    code = "import pickle, sys; from bot.engine.cards import parse_cards; "
    code += "sys.stdout.buffer.write(pickle.dumps(parse_cards('AS 10H JK 10H')))"
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        sent = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=True).stdout
        cards = pickle.loads(sent)
        assert Counter(cards) == Counter(parse_cards("AS 10H JK 10H"))
        assert set(cards) <= set(build_shoe(2, 2))
