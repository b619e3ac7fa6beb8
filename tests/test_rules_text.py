from bot.engine import Rules
from bot.engine.formats import Format
from bot.rules_text import describe_rules


def test_the_rules_text_follows_the_options_the_table_plays_with():
    standard = describe_rules(Format.POOL_101.spec, Rules())
    assert "101 or more you are out" in standard and "Drops cost 20" in standard
    assert "above 79" in standard and "cannot be picked" in standard
    assert "at most 80" in standard and "4+ cards" not in standard
    octro = describe_rules(Format.DEALS_3.spec, Rules.preset("octro"))
    assert "240 chips" in octro and "no dropping" in octro and "Drops:" not in octro
    assert "one joker per impure sequence" in octro and "4+ cards" in octro
    assert "2 decks up to 3 players, 3 decks up to 5 players" in octro
    assert "three identical cards" in octro and "three identical cards" not in standard
    points = describe_rules(Format.POINTS.spec, Rules(pick_discarded_joker=True), point_value=5)
    assert "× 5 chips" in points and "cannot be picked" not in points
    assert "sha256" in points
