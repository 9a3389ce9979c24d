//! What differs between rulesets in play: the flow rules as data ([`Rules`]), and the
//! judge of wins ([`Judge`]): the ruleset's own scorer, so that a win the game allows
//! always scores.

use std::sync::Arc;

use crate::distance;
use crate::engine::{Engine, Wilds};
use crate::error::Result;
use crate::forms::{Forms, View};
use crate::hand::{Hand, Meld, MeldKind};
use crate::score::scheme::Scheme;
use crate::score::situation::{KeyKind, Reader, Value};
use crate::tiles::{self, Tile, ALL_KINDS, KINDS};

/// Who wins when several players call a win on one tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winners {
    /// Every one of them (通炮, 一炮多响).
    All,
    /// The first after the discarder in turn order (截胡).
    First,
}

/// Where the wild tiles of a deal come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WildRule {
    None,
    /// A tile turned up from the end of the wall after the deal; the wild is the next
    /// kind (开混, 惠坯).
    Indicator,
    /// A tile turned up from the end of the wall before the deal is the wild itself
    /// (翻财神); a flower turned up makes every flower wild.
    Turned,
}

/// The flow rules of one ruleset (the `GAME` of its Python module).
#[derive(Clone, Debug)]
pub struct Rules {
    pub name: String,
    /// Melds of a complete hand: 4 (13-tile hands) or 5 (16).
    pub melds: u8,
    /// Kinds in the wall (bitmask), four copies each, and the flowers, one each (bit f).
    pub tiles: u64,
    pub flowers: u8,
    /// Chows may be claimed (from the player on the left only).
    pub chow: bool,
    pub winners: Winners,
    /// 漏胡: a player who passes a win on a discard may not win on a discard until it
    /// draws again.
    pub passed_win: bool,
    /// Tiles left in the wall when the hand is drawn (黄庄), and more for each kong after
    /// the first (Beijing's "执行1个杠留7砘", "2个杠留8砘").
    pub kept: u8,
    pub kept_per_kong: u8,
    /// The drawer of the wall's last tile discards (and the others may win on it); false:
    /// it wins or the hand ends ("最后一张不用打出").
    pub last_discard: bool,
    /// The last tile is offered (海底) to the seat to draw, which takes it or lets it go;
    /// once taken and not won by its taker (where it is not discarded), the others may
    /// win on it.
    pub haidi: bool,
    /// A 海底 tile let go is offered to the next seat in turn (海底漫游); false: the hand
    /// ends drawn ("可以选择放弃抓“海底牌”").
    pub haidi_roams: bool,
    /// The drawer of the last tile, not winning on it, discards that tile and no other
    /// ("必须打出去，不得换其他牌打出").
    pub last_discard_drawn: bool,
    /// A discard made while one tile is left to draw may only be won on ("倒数第二张玩家摸进
    /// 后打出的牌不允许吃碰杠，只能胡"); false: it is claimed as any other.
    pub before_last_won_only: bool,
    pub wild: WildRule,
    /// The seat's own flower is a wild kept in the hand, not set aside (坐花).
    pub seat_flower_wild: bool,
    /// Wild tiles may not be discarded (but for a hand of wilds alone).
    pub wilds_kept: bool,
    /// 分张: when this many tiles or fewer are left to draw, each seat in turn takes one,
    /// wins on it or keeps it, with no discard, no kong and no flower replaced (0: none).
    pub split: u8,
    /// The kept tiles are whole stacks of two: one more while the end of the wall has a
    /// single tile on top, after an odd number of replacements (王牌 of 10幢半).
    pub kept_stacks: bool,
    /// A hand holding this many wilds proper (正财神) wins at once, whatever its shape
    /// (推土机); 0: no such win.
    pub instant_wilds: u8,
    /// A dealt hand may win at once when the ruleset's scorer says so (`dealt=True`:
    /// Changsha's 起手胡), before the dealer's first discard.
    pub dealt_wins: bool,
    /// A player may lay its ready hand open as it discards (明听); it then wins only
    /// self-drawn, claims nothing and discards what it draws.
    pub open_ready: bool,
    /// Longgang's bars on claims (五）d, f): a seat that lets a pung go may not pung that
    /// kind until it draws (过水碰); a seat does not chow a kind it discarded since its
    /// draw; after a chow it does not discard the tile claimed nor the one at the other
    /// end of the two it held (吃牌禁止), after a pung not the kind punged.
    pub claim_bars: bool,
    /// The dealer's concealed kongs before its first discard keep 天胡 and 地胡 ("可暗杠").
    pub heavenly_kongs: bool,
    /// A tile of a kind melded as a pung is not discarded: it is added to the pung (补杠)
    /// or kept ("有小明杠若不补杠，则不能打出这张牌").
    pub fourth_tile_kept: bool,
    /// A concealed kong may be robbed by a win on its tile that counts this pattern of the
    /// ruleset's scorer (Beijing's 一条龙), scored as self-drawn; empty: never robbed.
    pub rob_concealed_kong: String,
    /// A wind the dealer discards first is followed: each seat after it in the first
    /// go-round, all before it having followed, discards it if it holds it (烧庄).
    pub follow_wind: bool,
    /// The prevailing wind, 0-3 (E S W N).
    pub round_wind: u8,
}

impl Rules {
    /// Tiles a hand holds waiting for its last: 13 or 16.
    pub fn hand_size(&self) -> usize {
        self.melds as usize * 3 + 1
    }

    /// Tiles in the wall before the deal.
    pub fn wall_size(&self) -> usize {
        4 * self.tiles.count_ones() as usize + self.flowers.count_ones() as usize
    }
}

impl Default for Rules {
    /// 13-tile hands of the 136 tiles under the common rules: chows, one winner on a
    /// discard, no wilds, no flowers, nothing kept.
    fn default() -> Rules {
        Rules {
            name: String::new(),
            melds: 4,
            tiles: tiles::ALL_KINDS,
            flowers: 0,
            chow: true,
            winners: Winners::First,
            passed_win: false,
            kept: 0,
            kept_per_kong: 0,
            last_discard: true,
            haidi: false,
            haidi_roams: true,
            last_discard_drawn: false,
            before_last_won_only: false,
            wild: WildRule::None,
            seat_flower_wild: false,
            wilds_kept: false,
            split: 0,
            kept_stacks: false,
            instant_wilds: 0,
            dealt_wins: false,
            open_ready: false,
            claim_bars: false,
            heavenly_kongs: false,
            fourth_tile_kept: false,
            rob_concealed_kong: String::new(),
            follow_wind: false,
            round_wind: 0,
        }
    }
}

/// The facts of one win, as the ruleset's situation keys take them.
#[derive(Clone, Debug)]
pub struct WinFacts {
    pub seat: u8,
    /// The hand without the winning tile (flowers in it).
    pub hand: Hand,
    pub win: Tile,
    /// The winning tile is this flower, a wild (a 坐花 drawn; `win` is then unused).
    pub win_flower: Option<u8>,
    /// A win on the dealt hand, with no winning tile (Changsha's 起手胡: `hand` holds all).
    pub dealt: bool,
    /// The hand was laid open (明听).
    pub open_ready: bool,
    pub discarder: Option<u8>,
    pub self_drawn: bool,
    pub kong_replacement: bool,
    pub robbing_kong: bool,
    pub wall_last: bool,
    pub last_of_kind: bool,
    pub heavenly: bool,
    pub earthly: bool,
    pub round_wind: u8,
    pub indicator: Option<Tile>,
    pub wilds: u64,
    /// The flower turned up when every flower is wild (Longgang's 花财神).
    pub flower_wilds: Option<u8>,
}

/// The scorer that judges wins: MCR's, or a regional ruleset's scheme; and the forms
/// with any pair allowed, for the quick test that most hands in play wait on nothing.
#[derive(Clone, Debug)]
pub struct Judge {
    pub scorer: Scorer,
    relaxed: Forms,
    /// 中发白 may stand as a concealed set (Tangshan), which the engine's waits do not know.
    dragon_sets: bool,
}

/// Whose scoring judges the wins.
#[derive(Clone, Debug)]
pub enum Scorer {
    Mcr(crate::mcr::Options, Box<Engine>),
    Scheme(Arc<Scheme>),
}

const WINDS: [&str; 4] = ["E", "S", "W", "N"];

impl Judge {
    pub fn new(scorer: Scorer) -> Judge {
        let forms = match &scorer {
            Scorer::Mcr(_, e) => &e.forms,
            Scorer::Scheme(s) => &s.engine.forms,
        };
        let relaxed = Forms { pair_kinds: ALL_KINDS, ..forms.clone() };
        let dragon_sets = matches!(&scorer, Scorer::Scheme(s) if s.dragon_sets);
        Judge { scorer, relaxed, dragon_sets }
    }

    pub fn mcr(options: crate::mcr::Options) -> Judge {
        Judge::new(Scorer::Mcr(options, Box::new(Engine::new("mcr", Forms::mcr(), ALL_KINDS))))
    }

    pub fn scheme(scheme: Arc<Scheme>) -> Judge {
        Judge::new(Scorer::Scheme(scheme))
    }

    /// The engine that finds waits under the ruleset's forms.
    pub fn engine(&self) -> &Engine {
        match &self.scorer {
            Scorer::Mcr(_, e) => e,
            Scorer::Scheme(s) => &s.engine,
        }
    }

    /// Kinds that complete a ready hand (13/16 tiles, melds counting 3).
    pub fn waits(&self, hand: &Hand, wild_kinds: u64) -> u64 {
        self.waits_with(hand, wild_kinds, 0)
    }

    /// [`Judge::waits`] with `extra` wilds held besides the wild kinds' copies (a 坐花,
    /// flowers that are wild).
    pub fn waits_with(&self, hand: &Hand, wild_kinds: u64, extra: u8) -> u64 {
        let sets = if self.dragon_sets { self.dragon_set_waits(hand, wild_kinds, extra) } else { 0 };
        if self.far(hand, wild_kinds, extra) {
            return sets;
        }
        let e = self.engine();
        let w = Wilds { kinds: wild_kinds, extra };
        sets | e.waits_mask(&e.view(hand, w), hand, w)
    }

    /// The waits of arrangements holding a 中发白 set, which the engine does not know: a
    /// set held, the rest waiting as a hand with one meld more (a chow of the dragons
    /// stands for it: it holds their three copies); or a set the winning dragon
    /// completes, the rest complete. A set holds real tiles only, never a wild. More than
    /// the scorer allows is no harm (it has the last word: a set is concealed, completed
    /// by a discard in no arrangement); fewer would be.
    fn dragon_set_waits(&self, hand: &Hand, wild_kinds: u64, extra: u8) -> u64 {
        let dragons = [tiles::WHITE, tiles::GREEN, tiles::RED];
        let held = |h: &Hand, t: Tile| h.concealed[t as usize] > 0 && wild_kinds >> t & 1 == 0;
        let set = Meld { kind: MeldKind::Chow, tile: tiles::WHITE, from: None };
        let mut out = 0;
        if dragons.iter().all(|&d| held(hand, d)) {
            let mut rest = hand.clone();
            dragons.iter().for_each(|&d| rest.concealed[d as usize] -= 1);
            rest.melds.push(set);
            out |= self.waits_with(&rest, wild_kinds, extra);
        }
        for &d in &dragons {
            let others: Vec<Tile> = dragons.iter().copied().filter(|&o| o != d).collect();
            if out >> d & 1 == 1 || !others.iter().all(|&o| held(hand, o)) {
                continue;
            }
            // The rest, a complete hand once the set is made, is complete when it waits on
            // one of its own tiles with that tile out (a tile that is no wild where it can).
            let mut rest = hand.clone();
            others.iter().for_each(|&o| rest.concealed[o as usize] -= 1);
            rest.melds.push(set);
            let mut pick = (0..KINDS as Tile).filter(|&t| rest.concealed[t as usize] > 0);
            let Some(x) = pick.clone().find(|&t| wild_kinds >> t & 1 == 0).or_else(|| pick.next()) else {
                continue;
            };
            rest.concealed[x as usize] -= 1;
            if self.waits_with(&rest, wild_kinds, extra) >> x & 1 == 1 {
                out |= 1 << d;
            }
        }
        out
    }

    /// Whether `hand` is surely more than one tile from complete (13/16 tiles: it waits on
    /// nothing; 14/17: no discard leaves it ready), told by the tables alone.
    pub fn far(&self, hand: &Hand, wild_kinds: u64, extra: u8) -> bool {
        if self.dragon_sets && (tiles::WHITE..=tiles::RED).filter(|&d| hand.concealed[d as usize] > 0).count() >= 2 {
            // A 中发白 set may make it nearer than the tables count.
            return false;
        }
        // Four copies of every kind and any pair can only bring a hand nearer: a hand two
        // tiles from ready so counted is at least as far. Most hands in play are, and so
        // are told by the tables alone (the exact count reads the copies melded, which
        // the tables do not hold). Where wilds may stand past four copies (Longgang),
        // each kind is given room for every wild held besides its four.
        let e = self.engine();
        let mut v = View::new(hand, e.tiles, wild_kinds, extra);
        let mut cap = 4u8;
        if self.relaxed.wilds_beyond_copies {
            let wilds: u8 = tiles::mask_tiles(wild_kinds).map(|t| hand.concealed[t as usize]).sum();
            cap += wilds + extra;
        }
        for t in 0..KINDS {
            if e.tiles >> t & 1 == 1 {
                v.caps[t] = cap;
            }
        }
        distance::distance(&self.relaxed, &v) > 1
    }

    /// The situation given to the ruleset's `evaluate`: the keys it takes, in order.
    pub fn situation(&self, f: &WinFacts) -> Vec<(&'static str, Value<'static>)> {
        let seat_wind = Value::Str(WINDS[f.seat as usize]);
        let round_wind = Value::Str(WINDS[f.round_wind as usize]);
        let hand = Value::Hand(Box::new(f.hand.clone()));
        if f.dealt {
            // The dealt hand alone: no winning tile, paid as self-drawn.
            return vec![("hand", hand), ("self_drawn", Value::Bool(true)), ("dealt", Value::Bool(true))];
        }
        let win = Value::Text(match f.win_flower {
            Some(fl) => tiles::flower_name(fl),
            None => tiles::name(f.win),
        });
        match &self.scorer {
            Scorer::Mcr(..) => vec![
                ("hand", hand),
                ("win", win),
                ("self_drawn", Value::Bool(f.self_drawn)),
                ("last_of_kind", Value::Bool(f.last_of_kind)),
                ("wall_last", Value::Bool(f.wall_last)),
                ("kong_replacement", Value::Bool(f.kong_replacement)),
                ("robbing_kong", Value::Bool(f.robbing_kong)),
                ("seat_wind", seat_wind),
                ("round_wind", round_wind),
            ],
            Scorer::Scheme(s) => {
                let mut out = vec![("hand", hand), ("win", win)];
                let has = |name: &str| s.keys.iter().find(|k| k.name == name).map(|k| &k.kind);
                let flags = [
                    ("self_drawn", f.self_drawn),
                    ("kong_replacement", f.kong_replacement),
                    ("robbing_kong", f.robbing_kong),
                    ("wall_last", f.wall_last),
                    ("last_of_kind", f.last_of_kind),
                    ("heavenly", f.heavenly),
                    ("earthly", f.earthly),
                ];
                for (name, v) in flags {
                    // Only flags that mean something in this ruleset: the others are
                    // taken and checked, and would only make the situation longer.
                    if matches!(has(name), Some(KeyKind::Flag(Some(_)))) {
                        out.push((name, Value::Bool(v)));
                    }
                }
                if f.open_ready {
                    out.push(("open_ready", Value::Bool(true)));
                }
                if has("seat").is_some() {
                    out.push(("seat", Value::Int(f.seat as i64)));
                } else if has("seat_wind").is_some() {
                    out.push(("seat_wind", seat_wind));
                }
                if has("round_wind").is_some() {
                    out.push(("round_wind", round_wind));
                }
                if let (Some(d), Some(_)) = (f.discarder, has("discarder_wind")) {
                    out.push(("discarder_wind", Value::Str(WINDS[d as usize])));
                }
                if let (Some(t), Some(_)) = (f.indicator, has("indicator")) {
                    out.push(("indicator", Value::Text(tiles::name(t))));
                } else if let (Some(fl), Some(_)) = (f.flower_wilds, has("wilds")) {
                    out.push(("wilds", Value::Text(tiles::flower_name(fl))));
                } else if f.wilds != 0 && has("wilds").is_some() {
                    let kinds: Vec<Tile> = tiles::mask_tiles(f.wilds).collect();
                    out.push(("wilds", Value::Text(tiles::tiles_to_string(&kinds))));
                }
                out
            }
        }
    }

    /// The index of the scorer's pattern `id` (a regional scheme's), if it has one.
    pub fn pattern(&self, id: &str) -> Option<usize> {
        match &self.scorer {
            Scorer::Mcr(..) => None,
            Scorer::Scheme(s) => s.patterns.iter().position(|p| p.id == id),
        }
    }

    /// The total the ruleset scores for the win, or `None` when it does not let the hand
    /// win (MCR under 8 points, Hainan without 番 on a discard ...).
    pub fn score(&self, f: &WinFacts) -> Result<Option<i32>> {
        self.score_counting(f, None)
    }

    /// [`Judge::score`], and `None` too where the win does not count the pattern of index
    /// `need` (a concealed kong robbed only by a 一条龙).
    pub fn score_counting(&self, f: &WinFacts, need: Option<usize>) -> Result<Option<i32>> {
        match &self.scorer {
            Scorer::Mcr(options, _) => {
                let s = crate::mcr::Situation {
                    win: f.win,
                    self_drawn: f.self_drawn,
                    seat_wind: f.seat,
                    round_wind: f.round_wind,
                    flowers: 0,
                    last_of_kind: f.last_of_kind,
                    wall_last: f.wall_last,
                    kong_replacement: f.kong_replacement,
                    robbing_kong: f.robbing_kong,
                };
                let r = crate::mcr::evaluate(&f.hand, s, options, false)?;
                // MCR has no pattern a game rule asks for (`pattern` finds none).
                Ok((r.win && need.is_none()).then_some(r.total as i32))
            }
            Scorer::Scheme(scheme) => {
                let mut reader = Reader::default();
                for (k, v) in self.situation(f) {
                    reader.set(scheme, k, v)?;
                }
                let p = reader.finish(scheme)?;
                let s = crate::score::evaluate::evaluate(scheme, &p);
                let counts = need.is_none_or(|i| s.counted >> i & 1 == 1);
                Ok((s.win && counts).then_some(s.total))
            }
        }
    }
}
