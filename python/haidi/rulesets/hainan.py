"""Hainan (海南麻将): 144 tiles with eight flowers; a 番 is needed to win on a discard."""

from ._spec import ALL_TILES, RulesetSpec

SPEC = RulesetSpec(
    name="hainan",
    title="Hainan (海南麻将)",
    melds=4,
    tiles=ALL_TILES,
    flowers="12345678f",
    forms=dict(
        seven_pairs=True,  # 七对
        four_as_two_pairs=True,
        thirteen_orphans=True,  # 十三幺
    ),
    source="seed 002",
)
