"""Longgang / Wenzhou (龙港麻将): 16-tile hands, no white dragon, 财神 wilds, four flowers."""

from ._spec import RulesetSpec

SPEC = RulesetSpec(
    name="longgang",
    title="Longgang / Wenzhou (龙港麻将)",
    melds=5,
    # "龙港麻将无白板": no white dragon (5z).
    tiles="123456789m123456789p123456789s123467z",
    flowers="1234f",
    forms=dict(
        eight_pairs_and_a_half=True,  # 八对半
        four_as_two_pairs=True,
    ),
    has_wilds=True,
    source="seed 003",
)
