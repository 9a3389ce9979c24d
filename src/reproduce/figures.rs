//! The figures of a table: ids that follow the published ones, the text's notation for
//! listed hands, and the mapping of the four published tables onto the 105 figures of
//! 附二 to 附五.

use super::{Listed, Shape, Table, TileSet};

/// A hand in the text's notation: the kinds written out in order (`1112345678999`),
/// declared kongs after it in brackets (`3334567888[1111]`); honours take a `z`.
pub fn notation(set: TileSet, l: &Listed) -> String {
    let mut s = String::new();
    for (i, &c) in l.counts.iter().enumerate().take(set.kinds()) {
        for _ in 0..c {
            s.push(char::from(b'1' + i as u8));
        }
    }
    if set == TileSet::Honours && !s.is_empty() {
        s.push('z');
    }
    for t in 0..set.kinds() {
        if l.kongs >> t & 1 == 1 {
            let d = char::from(b'1' + t as u8).to_string().repeat(4);
            s += &if set == TileSet::Honours { format!("[{d}z]") } else { format!("[{d}]") };
        }
    }
    s
}

/// A set of kinds as the text writes waits: `1245689`.
pub fn kinds_notation(mask: u16) -> String {
    (0..9).filter(|&t| mask >> t & 1 == 1).map(|t| char::from(b'1' + t as u8)).collect()
}

fn mask_of(kinds: &str) -> u16 {
    kinds.bytes().fold(0, |m, b| m | 1 << (b - b'1'))
}

/// 九莲宝灯's 1112345678999.
pub(super) const NINE_GATES: Shape = [3, 1, 1, 1, 1, 1, 1, 1, 3];

fn holds(s: &Shape, sub: &Shape) -> bool {
    s.iter().zip(sub).all(|(a, b)| a >= b)
}

/// The text's labels of the fifteen 16-tile nine-wait hands (附二): 八对半型 when the pairs
/// form supplies waits, 九莲宝灯 when the hand holds 1112345678999, 四暗刻型 with four kinds
/// held three times, 九龙飞天 otherwise. They reproduce the text's split and its legible
/// digits; they are not rule-book definitions.
pub fn nine_wait_label(l: &Listed) -> &'static str {
    if l.pairs_waits != 0 {
        "八对半型"
    } else if holds(&l.counts, &NINE_GATES) {
        "九莲宝灯"
    } else if l.counts.iter().filter(|&&c| c == 3).count() >= 4 {
        "四暗刻型"
    } else {
        "九龙飞天"
    }
}

/// Figures of one table under ids that follow the published ones
/// (`ready13_any`, `complete14_pairs`, `honours16_ready_standard`, ...).
pub fn table_figures(t: &Table) -> Vec<(String, u64)> {
    let (n, m) = (t.tiles, t.tiles + 1);
    let (r, c, k) = (&t.ready, &t.complete, &t.kongs);
    let mut v: Vec<(String, u64)> = Vec::new();
    let mut put = |id: String, x: u64| v.push((id, x));
    match t.set {
        TileSet::OneSuit => {
            put(format!("ready{n}_hands"), r.hands);
            put(format!("ready{n}_any"), r.any);
            put(format!("ready{n}_none"), r.none);
            put(format!("ready{n}_standard"), r.standard);
            put(format!("ready{n}_pairs"), r.pairs);
            put(format!("ready{n}_pairs_distinct"), r.pairs_distinct);
            put(format!("ready{n}_composite"), r.composite);
            put(format!("ready{n}_composite_same_wait"), r.composite_same_wait);
            put(format!("ready{n}_every_tile_wins"), r.every_tile_wins.iter().sum());
            for w in 1..=t.set.kinds() {
                put(format!("waits{n}_any_{w}"), r.waits_any[w]);
            }
            for w in 1..=t.set.kinds() {
                put(format!("waits{n}_standard_{w}"), r.waits_standard[w]);
            }
            for w in 1..=t.set.kinds() {
                put(format!("zz{n}_waits{w}"), r.every_tile_wins[w]);
                put(format!("zz{n}_waits{w}_physical"), r.every_tile_wins_physical[w]);
            }
            put(format!("zz{n}_total"), r.every_tile_wins.iter().sum());
            put(format!("zz{n}_physical_total"), r.every_tile_wins_physical.iter().sum());
            put(format!("zz{n}_with_kongs"), k.every_tile_wins);
            put(format!("kongs{n}_ready"), k.ready);
            put(format!("complete{m}_hands"), c.hands);
            put(format!("complete{m}_any"), c.any);
            put(format!("complete{m}_none"), c.none);
            put(format!("complete{m}_standard"), c.standard);
            put(format!("complete{m}_pairs"), c.pairs);
            put(format!("complete{m}_pairs_distinct"), c.pairs_distinct);
            put(format!("complete{m}_composite"), c.composite);
            put(format!("kongs{m}_complete"), k.complete);
        }
        TileSet::Honours => {
            put(format!("honours{n}_ready_hands"), r.hands);
            put(format!("honours{n}_ready_no_kong"), r.any);
            put(format!("honours{n}_ready_none"), r.none);
            put(format!("honours{n}_ready_standard"), r.standard);
            put(format!("honours{n}_ready_pairs"), r.pairs);
            put(format!("honours{n}_ready_composite"), r.composite);
            put(format!("honours{n}_ready_with_kongs"), k.ready);
            put(format!("honours{n}_ready_total"), r.any + k.ready);
            for w in 1..=t.set.kinds() {
                put(format!("honours{n}_waits_any_{w}"), r.waits_any[w]);
            }
            put(format!("honours{m}_complete_hands"), c.hands);
            put(format!("honours{m}_complete_no_kong"), c.any);
            put(format!("honours{m}_complete_standard"), c.standard);
            put(format!("honours{m}_complete_pairs"), c.pairs);
            put(format!("honours{m}_complete_composite"), c.composite);
            put(format!("honours{m}_complete_with_kongs"), k.complete);
            put(format!("honours{m}_complete_total"), c.any + k.complete);
        }
    }
    v
}

/// The four tables behind the published figures: one suit 16 and 13 tiles, honours 13
/// and 16 tiles.
pub const PUBLISHED_TABLES: [(usize, TileSet); 4] =
    [(16, TileSet::OneSuit), (13, TileSet::OneSuit), (13, TileSet::Honours), (16, TileSet::Honours)];

/// Every published figure of 附二 to 附五 as haidi computes it, keyed by the ids of
/// `tests/data/published_tables.json`, from the four [`PUBLISHED_TABLES`] in that order.
/// Per-family conventions (docs/reproduce.md): 16-tile 附四 counts waits of both forms,
/// 13-tile 附四 standard-form waits only; 复合 is ready (complete) in both forms.
pub fn published_figures(tables: &[Table; 4]) -> Vec<(String, u64)> {
    let [s16, s13, h13, h16] = tables;
    let mut v: Vec<(String, u64)> = Vec::new();
    let mut put = |id: &str, x: u64| v.push((id.to_string(), x));
    let (r16, r13) = (&s16.ready, &s13.ready);

    // 附二: 16-tile 张张可胡.
    put("zz16_total", r16.every_tile_wins.iter().sum());
    for w in 6..=9 {
        put(&format!("zz16_waits{w}"), r16.every_tile_wins[w]);
        put(&format!("zz16_waits{w}_physical"), r16.every_tile_wins_physical[w]);
    }
    put("zz16_physical_total", r16.every_tile_wins_physical.iter().sum());
    let with_waits = |w: u32| r16.every_tile_wins_hands.iter().filter(move |l| l.waits().count_ones() == w);
    let label_count = |name: &str| with_waits(9).filter(|l| nine_wait_label(l) == name).count() as u64;
    put("zz16_waits9_nine_dragons", label_count("九龙飞天"));
    put("zz16_waits9_nine_gates", label_count("九莲宝灯"));
    put("zz16_waits9_pairs_form", label_count("八对半型"));
    put("zz16_waits9_four_pungs", label_count("四暗刻型"));
    let nine_gates_based = with_waits(8).filter(|l| holds(&l.counts, &NINE_GATES)).count() as u64;
    put("zz16_waits8_nine_gates_based", nine_gates_based);
    put("zz16_waits8_other", with_waits(8).count() as u64 - nine_gates_based);
    put("zz16_with_kongs", s16.kongs.every_tile_wins);

    // 附三: 13-tile 张张可胡.
    put("zz13_total", r13.every_tile_wins.iter().sum());
    for w in 7..=9 {
        put(&format!("zz13_waits{w}"), r13.every_tile_wins[w]);
    }
    put("zz13_with_kongs", s13.kongs.every_tile_wins);

    // 附四: hands by number of waits.
    for w in 1..=9 {
        put(&format!("multiwait16_{w}"), r16.waits_any[w]);
    }
    for w in 6..=9 {
        put(&format!("multiwait16_{w}_zz"), r16.every_tile_wins[w]);
    }
    put("multiwait16_total", r16.any);
    put("multiwait16_complete", s16.complete.any);
    for w in 1..=9 {
        put(&format!("multiwait13_{w}"), r13.waits_standard[w]);
    }
    for w in 7..=9 {
        put(&format!("multiwait13_{w}_zz"), r13.every_tile_wins[w]);
    }
    put("multiwait13_total", r13.standard);
    put("multiwait13_complete", s13.complete.standard);
    put("four_quads16", r16.quads_only.len() as u64);
    let consecutive = r16
        .quads_only
        .iter()
        .filter(|l| {
            let held: Vec<usize> = (0..9).filter(|&t| l.counts[t] > 0).collect();
            held.windows(2).all(|w| w[1] == w[0] + 1)
        })
        .count();
    put("four_quads16_consecutive", consecutive as u64);
    for (n, r) in [(13, r13), (16, r16)] {
        for set in ["123456", "1234567", "12345678"] {
            put(&format!("exact_waits{n}_{set}"), r.by_wait_set[mask_of(set) as usize]);
        }
    }

    // 附五.
    for t in [s16, s13] {
        let (n, m, r, c) = (t.tiles, t.tiles + 1, &t.ready, &t.complete);
        put(&format!("ready{n}_any"), r.any);
        put(&format!("ready{n}_none"), r.none);
        put(&format!("ready{n}_standard"), r.standard);
        put(&format!("ready{n}_pairs"), r.pairs);
        put(&format!("ready{n}_pairs_distinct"), r.pairs_distinct);
        put(&format!("ready{n}_composite"), r.composite);
        put(&format!("ready{n}_every_tile_wins"), r.every_tile_wins.iter().sum());
        put(&format!("complete{m}_any"), c.any);
        put(&format!("complete{m}_none"), c.none);
        put(&format!("complete{m}_standard"), c.standard);
        put(&format!("complete{m}_pairs"), c.pairs);
        put(&format!("complete{m}_pairs_distinct"), c.pairs_distinct);
        put(&format!("complete{m}_composite"), c.composite);
    }
    for t in [h13, h16] {
        let (n, m, r, c, k) = (t.tiles, t.tiles + 1, &t.ready, &t.complete, &t.kongs);
        put(&format!("honours{n}_ready_no_kong"), r.any);
        put(&format!("honours{n}_ready_standard"), r.standard);
        put(&format!("honours{n}_ready_pairs"), r.pairs);
        put(&format!("honours{n}_ready_with_kongs"), k.ready);
        put(&format!("honours{n}_ready_total"), r.any + k.ready);
        put(&format!("honours{m}_complete_no_kong"), c.any);
        put(&format!("honours{m}_complete_standard"), c.standard);
        put(&format!("honours{m}_complete_pairs"), c.pairs);
        put(&format!("honours{m}_complete_with_kongs"), k.complete);
        put(&format!("honours{m}_complete_total"), c.any + k.complete);
    }
    v
}
