"""Beijing (北京麻将): 136 tiles, 惠牌 wilds, 七对 and 豪华七对."""

from ._spec import ALL_TILES, RulesetSpec

SPEC = RulesetSpec(
    name="beijing",
    title="Beijing (北京麻将)",
    melds=4,
    tiles=ALL_TILES,
    forms=dict(
        seven_pairs=True,
        four_as_two_pairs=True,  # 豪华七对子
    ),
    has_wilds=True,
    source="seed 004, the Beijing descriptions",
)
