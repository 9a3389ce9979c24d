//! The MCR (Chinese Official, 国标麻将) fan table: the 81 fans of the 2006
//! list with their ids, names and points, and the "not counted with" (不计)
//! exclusions the list states for each fan.
//!
//! Ids, names and points follow the numbered list in
//! `../shared/seeds/000_c68ca9f9e3c29adf.txt` (traditional characters there;
//! the names here are the usual simplified forms, as in
//! `mcr-gb-mahjong-fan-names.json`). `docs/mcr-fans.md` quotes the seed line
//! behind every exclusion and lists where ChineseOfficialMahjongHelper (the
//! engine inside PyMahjongGB) differs.
//!
//! Pure data: no dependencies.

/// One fan of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FanInfo {
    /// 1..=81, the number in the list (81 is 花牌, flowers).
    pub id: u8,
    /// Chinese name (simplified), e.g. "九莲宝灯".
    pub name: &'static str,
    /// The usual English name, e.g. "Nine Gates".
    pub name_en: &'static str,
    /// Points (番) for one occurrence.
    pub points: u8,
}

const fn fan(id: u8, name: &'static str, name_en: &'static str, points: u8) -> FanInfo {
    FanInfo { id, name, name_en, points }
}

/// Number of fans in the list.
pub const FAN_COUNT: usize = 81;

/// The 81 fans, `FANS[i].id == i + 1`.
pub const FANS: [FanInfo; 81] = [
    // 88
    fan(1, "大四喜", "Big Four Winds", 88),
    fan(2, "大三元", "Big Three Dragons", 88),
    fan(3, "绿一色", "All Green", 88),
    fan(4, "九莲宝灯", "Nine Gates", 88),
    fan(5, "四杠", "Four Kongs", 88),
    fan(6, "连七对", "Seven Shifted Pairs", 88),
    fan(7, "十三幺", "Thirteen Orphans", 88),
    // 64
    fan(8, "清幺九", "All Terminals", 64),
    fan(9, "小四喜", "Little Four Winds", 64),
    fan(10, "小三元", "Little Three Dragons", 64),
    fan(11, "字一色", "All Honors", 64),
    fan(12, "四暗刻", "Four Concealed Pungs", 64),
    fan(13, "一色双龙会", "Pure Terminal Chows", 64),
    // 48
    fan(14, "一色四同顺", "Quadruple Chow", 48),
    fan(15, "一色四节高", "Four Pure Shifted Pungs", 48),
    // 32
    fan(16, "一色四步高", "Four Pure Shifted Chows", 32),
    fan(17, "三杠", "Three Kongs", 32),
    fan(18, "混幺九", "All Terminals and Honors", 32),
    // 24
    fan(19, "七对", "Seven Pairs", 24),
    fan(20, "七星不靠", "Greater Honors and Knitted Tiles", 24),
    fan(21, "全双刻", "All Even Pungs", 24),
    fan(22, "清一色", "Full Flush", 24),
    fan(23, "一色三同顺", "Pure Triple Chow", 24),
    fan(24, "一色三节高", "Pure Shifted Pungs", 24),
    fan(25, "全大", "Upper Tiles", 24),
    fan(26, "全中", "Middle Tiles", 24),
    fan(27, "全小", "Lower Tiles", 24),
    // 16
    fan(28, "清龙", "Pure Straight", 16),
    fan(29, "三色双龙会", "Three-Suited Terminal Chows", 16),
    fan(30, "一色三步高", "Pure Shifted Chows", 16),
    fan(31, "全带五", "All Fives", 16),
    fan(32, "三同刻", "Triple Pung", 16),
    fan(33, "三暗刻", "Three Concealed Pungs", 16),
    // 12
    fan(34, "全不靠", "Lesser Honors and Knitted Tiles", 12),
    fan(35, "组合龙", "Knitted Straight", 12),
    fan(36, "大于五", "Upper Four", 12),
    fan(37, "小于五", "Lower Four", 12),
    fan(38, "三风刻", "Big Three Winds", 12),
    // 8
    fan(39, "花龙", "Mixed Straight", 8),
    fan(40, "推不倒", "Reversible Tiles", 8),
    fan(41, "三色三同顺", "Mixed Triple Chow", 8),
    fan(42, "三色三节高", "Mixed Shifted Pungs", 8),
    fan(43, "无番和", "Chicken Hand", 8),
    fan(44, "妙手回春", "Last Tile Draw", 8),
    fan(45, "海底捞月", "Last Tile Claim", 8),
    fan(46, "杠上开花", "Out with Replacement Tile", 8),
    fan(47, "抢杠和", "Robbing the Kong", 8),
    // 6
    fan(48, "碰碰和", "All Pungs", 6),
    fan(49, "混一色", "Half Flush", 6),
    fan(50, "三色三步高", "Mixed Shifted Chows", 6),
    fan(51, "五门齐", "All Types", 6),
    fan(52, "全求人", "Melded Hand", 6),
    fan(53, "双暗杠", "Two Concealed Kongs", 6),
    fan(54, "双箭刻", "Two Dragon Pungs", 6),
    // 4
    fan(55, "全带幺", "Outside Hand", 4),
    fan(56, "不求人", "Fully Concealed Hand", 4),
    fan(57, "双明杠", "Two Melded Kongs", 4),
    fan(58, "和绝张", "Last Tile", 4),
    // 2
    fan(59, "箭刻", "Dragon Pung", 2),
    fan(60, "圈风刻", "Prevalent Wind", 2),
    fan(61, "门风刻", "Seat Wind", 2),
    fan(62, "门前清", "Concealed Hand", 2),
    fan(63, "平和", "All Chows", 2),
    fan(64, "四归一", "Tile Hog", 2),
    fan(65, "双同刻", "Double Pung", 2),
    fan(66, "双暗刻", "Two Concealed Pungs", 2),
    fan(67, "暗杠", "Concealed Kong", 2),
    fan(68, "断幺", "All Simples", 2),
    // 1
    fan(69, "一般高", "Pure Double Chow", 1),
    fan(70, "喜相逢", "Mixed Double Chow", 1),
    fan(71, "连六", "Short Straight", 1),
    fan(72, "老少副", "Two Terminal Chows", 1),
    fan(73, "幺九刻", "Pung of Terminals or Honors", 1),
    fan(74, "明杠", "Melded Kong", 1),
    fan(75, "缺一门", "One Voided Suit", 1),
    fan(76, "无字", "No Honors", 1),
    fan(77, "边张", "Edge Wait", 1),
    fan(78, "坎张", "Closed Wait", 1),
    fan(79, "单钓将", "Single Wait", 1),
    fan(80, "自摸", "Self-Drawn", 1),
    fan(81, "花牌", "Flower Tiles", 1),
];

/// `EXCLUDES[id]`: the fans that fan `id` makes not counted (不计), as the
/// seed list states them in that fan's note (index 0 is unused). Only what
/// the list says: exclusions that follow from the general principles
/// (不重复 etc.) are in [`IMPLIED_EXCLUDES`]. Garbled wording in the seed is
/// read as explained in `docs/mcr-fans.md`.
pub const EXCLUDES: [&[u8]; 82] = [
    &[],               // 0 (unused)
    &[38, 48, 60, 61], // 1 大四喜: 圈风刻 门风刻 三风刻 碰碰和
    &[59],             // 2 大三元: 箭刻
    &[49],             // 3 绿一色: 混一色
    &[22],             // 4 九莲宝灯: 清一色
    &[],               // 5 四杠
    &[22, 56, 79],     // 6 连七对: 清一色 不求人 单钓
    &[51, 56, 79],     // 7 十三幺: 五门齐 不求人 单钓
    &[48, 65, 76],     // 8 清幺九: 碰碰和 "同刻" (read as 双同刻) 无字
    &[38],             // 9 小四喜: 三风刻
    &[59],             // 10 小三元: 箭刻
    &[48],             // 11 字一色: 碰碰和
    &[48, 62],         // 12 四暗刻: 门前清 碰碰和
    &[19, 22, 63],     // 13 一色双龙会: "平各" (平和) 七对 清一色
    &[24, 64, 69],     // 14 一色四同顺: 一色三节高 一般高 四归一
    &[23, 48],         // 15 一色四节高: 一色三同顺 碰碰和
    &[],               // 16 一色四步高
    &[],               // 17 三杠
    &[48],             // 18 混幺九: 碰碰和
    &[56, 79],         // 19 七对: 不求人 单钓
    &[51, 56, 79],     // 20 七星不靠: 五门齐 不求人 单钓
    &[48, 68],         // 21 全双刻: 碰碰和 断幺
    &[76],             // 22 清一色: "不无字" (不计无字)
    &[24],             // 23 一色三同顺: 一色三节高
    &[23],             // 24 一色三节高: 一色三同顺
    &[76],             // 25 全大: 无字
    &[68],             // 26 全中: 断幺
    &[76],             // 27 全小: 无字
    &[],               // 28 清龙
    &[63, 70, 72, 76], // 29 三色双龙会: 喜相逢 老少副 无字 平和
    &[],               // 30 一色三步高
    &[68],             // 31 全带五: 断幺
    &[],               // 32 三同刻
    &[],               // 33 三暗刻
    &[51, 56, 79],     // 34 全不靠: 五门齐 不求人 单钓
    &[],               // 35 组合龙
    &[76],             // 36 大于五: 无字
    &[76],             // 37 小于五: 无字
    &[],               // 38 三风刻
    &[],               // 39 花龙
    &[75],             // 40 推不倒: 缺一门
    &[],               // 41 三色三同顺
    &[],               // 42 三色三节高
    &[],               // 43 无番和
    &[80],             // 44 妙手回春: 自摸
    &[],               // 45 海底捞月
    &[80],             // 46 杠上开花: 自摸
    &[58],             // 47 抢杠和: 和绝张
    &[],               // 48 碰碰和
    &[],               // 49 混一色
    &[],               // 50 三色三步高
    &[],               // 51 五门齐
    &[79],             // 52 全求人: 单钓
    &[],               // 53 双暗杠
    &[],               // 54 双箭刻
    &[],               // 55 全带幺
    &[],               // 56 不求人
    &[],               // 57 双明杠
    &[],               // 58 和绝张 (its note restates 抢杠和's)
    &[],               // 59 箭刻
    &[],               // 60 圈风刻
    &[],               // 61 门风刻
    &[],               // 62 门前清
    &[],               // 63 平和
    &[],               // 64 四归一
    &[],               // 65 双同刻
    &[],               // 66 双暗刻
    &[],               // 67 暗杠
    &[],               // 68 断幺
    &[],               // 69 一般高
    &[],               // 70 喜相逢
    &[],               // 71 连六
    &[],               // 72 老少副
    &[],               // 73 幺九刻
    &[],               // 74 明杠
    &[],               // 75 缺一门
    &[],               // 76 无字
    &[],               // 77 边张
    &[],               // 78 坎张
    &[],               // 79 单钓将
    &[],               // 80 自摸
    &[],               // 81 花牌 (its "不计杠上开花" is about flower replacement)
];

/// `IMPLIED_EXCLUDES[id]`: further fans that fan `id` makes not counted
/// although its note in the seed list does not say so. Each follows from the
/// general principle 不重复 (the fan's definition already implies the other,
/// or a fan for a group of sets replaces the smaller fans inside it), and
/// ChineseOfficialMahjongHelper (PyMahjongGB) applies each of them to the
/// whole fan. Disjoint from [`EXCLUDES`]. Reductions that only concern some
/// of the sets (the 幺九刻 of the wind pungs inside 三风刻, 圈风刻 and 门风刻,
/// the one 幺九刻 inside 九莲宝灯) and the 明暗杠 ruling are described in
/// `docs/mcr-fans.md`, not here.
pub const IMPLIED_EXCLUDES: [&[u8]; 82] = [
    &[],                           // 0 (unused)
    &[73],                         // 1 大四喜: 幺九刻
    &[54],                         // 2 大三元: 双箭刻
    &[75],                         // 3 绿一色: 缺一门
    &[56, 62, 75, 76],             // 4 九莲宝灯: 不求人 门前清 缺一门 无字
    &[17, 48, 53, 57, 67, 74, 79], // 5 四杠: 三杠 碰碰和 双暗杠 双明杠 暗杠 明杠 单钓将
    &[19, 62, 75, 76],             // 6 连七对: 七对 门前清 缺一门 无字
    &[18, 62],                     // 7 十三幺: 混幺九 门前清
    &[18, 55, 73],                 // 8 清幺九: 混幺九 全带幺 幺九刻
    &[73],                         // 9 小四喜: 幺九刻
    &[54],                         // 10 小三元: 双箭刻
    &[18, 55, 73, 75],             // 11 字一色: 混幺九 全带幺 幺九刻 缺一门
    &[33, 56, 66],                 // 12 四暗刻: 三暗刻 不求人 (自摸 stays) 双暗刻
    &[69, 72, 75, 76],             // 13 一色双龙会: 一般高 老少副 缺一门 无字
    &[23],                         // 14 一色四同顺: 一色三同顺
    &[24],                         // 15 一色四节高: 一色三节高
    &[30, 71, 72],                 // 16 一色四步高: 一色三步高 连六 老少副
    &[53, 57, 67, 74],             // 17 三杠: 双暗杠 双明杠 暗杠 明杠
    &[55, 73],                     // 18 混幺九: 全带幺 幺九刻
    &[62],                         // 19 七对: 门前清
    &[34, 62],                     // 20 七星不靠: 全不靠 门前清
    &[76],                         // 21 全双刻: 无字
    &[75],                         // 22 清一色: 缺一门
    &[69],                         // 23 一色三同顺: 一般高
    &[],                           // 24 一色三节高
    &[36],                         // 25 全大: 大于五
    &[76],                         // 26 全中: 无字
    &[37],                         // 27 全小: 小于五
    &[71, 72],                     // 28 清龙: 连六 老少副
    &[],                           // 29 三色双龙会
    &[],                           // 30 一色三步高
    &[76],                         // 31 全带五: 无字
    &[65],                         // 32 三同刻: 双同刻
    &[66],                         // 33 三暗刻: 双暗刻
    &[62],                         // 34 全不靠: 门前清
    &[],                           // 35 组合龙
    &[],                           // 36 大于五
    &[],                           // 37 小于五
    &[],                           // 38 三风刻 (its 3 幺九刻 only)
    &[],                           // 39 花龙
    &[],                           // 40 推不倒
    &[70],                         // 41 三色三同顺: 喜相逢
    &[],                           // 42 三色三节高
    &[],                           // 43 无番和
    &[],                           // 44 妙手回春
    &[],                           // 45 海底捞月
    &[],                           // 46 杠上开花
    &[],                           // 47 抢杠和
    &[],                           // 48 碰碰和
    &[75],                         // 49 混一色: 缺一门
    &[],                           // 50 三色三步高
    &[],                           // 51 五门齐
    &[],                           // 52 全求人
    &[66, 67],                     // 53 双暗杠: 双暗刻 暗杠
    &[59],                         // 54 双箭刻: 箭刻
    &[],                           // 55 全带幺
    &[62, 80],                     // 56 不求人: 门前清 自摸
    &[74],                         // 57 双明杠: 明杠
    &[],                           // 58 和绝张
    &[],                           // 59 箭刻
    &[],                           // 60 圈风刻 (its own 幺九刻 only)
    &[],                           // 61 门风刻 (its own 幺九刻 only)
    &[],                           // 62 门前清
    &[76],                         // 63 平和: 无字
    &[],                           // 64 四归一
    &[],                           // 65 双同刻
    &[],                           // 66 双暗刻
    &[],                           // 67 暗杠
    &[76],                         // 68 断幺: 无字
    &[],                           // 69 一般高
    &[],                           // 70 喜相逢
    &[],                           // 71 连六
    &[],                           // 72 老少副
    &[],                           // 73 幺九刻
    &[],                           // 74 明杠
    &[],                           // 75 缺一门
    &[],                           // 76 无字
    &[],                           // 77 边张
    &[],                           // 78 坎张
    &[],                           // 79 单钓将
    &[],                           // 80 自摸
    &[],                           // 81 花牌
];

#[cfg(test)]
mod tests {
    use super::*;

    const POINTS: [u8; 12] = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 88];

    #[test]
    fn ids_are_1_to_81_in_order() {
        assert_eq!(FANS.len(), FAN_COUNT);
        for (i, f) in FANS.iter().enumerate() {
            assert_eq!(f.id as usize, i + 1, "{}", f.name);
        }
    }

    #[test]
    fn points_are_valid_and_never_increase() {
        for f in FANS.iter() {
            assert!(POINTS.contains(&f.points), "{} has {}", f.name, f.points);
        }
        for w in FANS.windows(2) {
            assert!(w[0].points >= w[1].points, "{} then {}", w[0].name, w[1].name);
        }
        assert_eq!(FANS[0].points, 88);
        assert_eq!(FANS[80].name, "花牌");
        assert_eq!(FANS[80].points, 1);
    }

    #[test]
    fn names_are_unique_and_present() {
        for (i, a) in FANS.iter().enumerate() {
            assert!(!a.name.is_empty() && !a.name_en.is_empty());
            for b in &FANS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.name_en, b.name_en);
            }
        }
    }

    fn check_table(table: &[&[u8]; 82]) {
        assert!(table[0].is_empty());
        for (id, ex) in table.iter().enumerate().skip(1) {
            for w in ex.windows(2) {
                assert!(w[0] < w[1], "fan {id}: not sorted or repeated");
            }
            for &e in ex.iter() {
                assert!((1..=81).contains(&e), "fan {id} excludes {e}");
                assert_ne!(e as usize, id, "fan {id} excludes itself");
                let (by, it) = (&FANS[id - 1], &FANS[e as usize - 1]);
                assert!(it.points <= by.points, "{} excludes {}", by.name, it.name);
            }
        }
    }

    #[test]
    fn exclusions_reference_valid_ids() {
        check_table(&EXCLUDES);
        check_table(&IMPLIED_EXCLUDES);
    }

    #[test]
    fn implied_exclusions_are_not_in_the_list() {
        for id in 1..=81 {
            for e in IMPLIED_EXCLUDES[id].iter() {
                assert!(!EXCLUDES[id].contains(e), "fan {id}: {e} twice");
            }
        }
    }

    #[test]
    fn some_rows_from_the_list() {
        assert_eq!(EXCLUDES[1], &[38, 48, 60, 61]);
        assert_eq!(EXCLUDES[47], &[58]);
        assert_eq!(EXCLUDES[81], &[] as &[u8]);
        assert_eq!(FANS[3].name_en, "Nine Gates");
        assert_eq!(FANS[68].name_en, "Pure Double Chow");
    }
}
