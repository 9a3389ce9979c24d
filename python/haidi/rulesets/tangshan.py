"""Tangshan (唐山麻将): 136 tiles, 混 wilds, 豪华七对 and 十三幺."""

from ._spec import ALL_TILES, RulesetSpec

SPEC = RulesetSpec(
    name="tangshan",
    title="Tangshan (唐山麻将)",
    melds=4,
    tiles=ALL_TILES,
    forms=dict(
        seven_pairs=True,
        four_as_two_pairs=True,  # 豪华七对
        thirteen_orphans=True,  # 十三幺
    ),
    has_wilds=True,
    source="seed 004, first part",
)
