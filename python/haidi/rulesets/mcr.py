"""MCR, Mahjong Competition Rules (国标麻将): 144 tiles, 13-tile hands, 81 fans."""

from ._spec import ALL_TILES, RulesetSpec

SPEC = RulesetSpec(
    name="mcr",
    title="MCR / Chinese Official (国标麻将)",
    melds=4,
    tiles=ALL_TILES,
    flowers="12345678f",
    forms=dict(
        seven_pairs=True,
        # 七对 may hold four of a kind as two pairs (it then also scores 四归一).
        four_as_two_pairs=True,
        thirteen_orphans=True,
        honours_and_knitted=True,
        knitted_straight=True,
    ),
    source="seeds 000/001/004: the 81-fan list",
)
