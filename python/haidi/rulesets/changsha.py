"""Changsha (长沙麻将; the seed calls it 广东麻将): 108 suited tiles, a 2-5-8 pair for 小胡."""

from ._spec import SUITED_TILES, RulesetSpec

SPEC = RulesetSpec(
    name="changsha",
    title="Changsha (长沙麻将)",
    melds=4,
    tiles=SUITED_TILES,
    forms=dict(
        # 平胡 needs a 2-5-8 pair (将); the 大胡 shapes below take any pair.
        pair_kinds="258m258p258s",
        seven_pairs=True,  # 七巧对
        four_as_two_pairs=True,  # 豪华七小对
        all_pungs_any_pair=True,  # 碰碰胡
        one_suit_any_pair=True,  # 清一色
        all_258=True,  # 将将胡
    ),
    source="seeds 000/001/004, part 广东麻将中的海底捞月; see docs/rulesets.md",
)
