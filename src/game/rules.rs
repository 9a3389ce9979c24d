//! What differs between rulesets in play: the flow rules as data ([`Rules`]), and the
//! judge of wins ([`Judge`]): the ruleset's own scorer, so that a win the game allows
//! always scores.

use std::sync::Arc;

use crate::distance;
use crate::engine::{Engine, Wilds};
use crate::error::{Phrase, Result, Spelling, TRUE_OR_FALSE};
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

/// What a flow rule holds, as a ruleset writes it (`GameRules` in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// True or False.
    Flag,
    /// A count from 0 to the bound.
    Count(u8),
    /// One of these names.
    Choice(&'static [&'static str]),
    /// Any text.
    Text,
}

/// The value of one flow rule, of its [`Kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Flag(bool),
    Count(u8),
    Text(String),
}

/// A type a flow rule may have: how it is written and read back.
pub trait Rule: Sized {
    /// Its kind; a count's bound is the declaration's.
    const KIND: Kind;
    fn setting(&self) -> Setting;
    /// The value of a setting of its kind; `None` for one it does not take (a name not
    /// among a choice's).
    fn from_setting(s: Setting) -> Option<Self>;
}

impl Rule for bool {
    const KIND: Kind = Kind::Flag;
    fn setting(&self) -> Setting {
        Setting::Flag(*self)
    }
    fn from_setting(s: Setting) -> Option<bool> {
        match s {
            Setting::Flag(b) => Some(b),
            _ => None,
        }
    }
}

impl Rule for u8 {
    const KIND: Kind = Kind::Count(u8::MAX);
    fn setting(&self) -> Setting {
        Setting::Count(*self)
    }
    fn from_setting(s: Setting) -> Option<u8> {
        match s {
            Setting::Count(n) => Some(n),
            _ => None,
        }
    }
}

impl Rule for String {
    const KIND: Kind = Kind::Text;
    fn setting(&self) -> Setting {
        Setting::Text(self.clone())
    }
    fn from_setting(s: Setting) -> Option<String> {
        match s {
            Setting::Text(t) => Some(t),
            _ => None,
        }
    }
}

/// A [`Rule`] of named choices: `$ty`'s variants by their names, in order.
macro_rules! choice {
    ($ty:ident { $($variant:ident = $name:literal),* $(,)? }) => {
        impl Rule for $ty {
            const KIND: Kind = Kind::Choice(&[$($name),*]);
            fn setting(&self) -> Setting {
                Setting::Text(match self { $($ty::$variant => $name),* }.to_string())
            }
            fn from_setting(s: Setting) -> Option<$ty> {
                match s {
                    Setting::Text(t) => match t.as_str() { $($name => Some($ty::$variant),)* _ => None },
                    _ => None,
                }
            }
        }
    };
}

choice!(Winners { All = "all", First = "first" });
choice!(WildRule { None = "none", Indicator = "indicator", Turned = "turned" });

/// One flow rule a ruleset declares: what [`FIELDS`] lists.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    /// Its doc comment, by line.
    pub doc: &'static [&'static str],
    /// Its value in `rules`.
    pub get: fn(&Rules) -> Setting,
    /// Sets it in `rules`; false for a setting it does not take.
    pub set: fn(&mut Rules, Setting) -> bool,
}

impl Field {
    /// The flow rule named `name`, or the error that says there is none.
    pub fn named(name: &str) -> std::result::Result<&'static Field, String> {
        let quoted = || Spelling::current().text(name);
        FIELDS.iter().find(|f| f.name == name).ok_or_else(|| format!("game rules: no rule is named {}", quoted()))
    }

    /// Its value where nothing sets it.
    pub fn default(&self) -> Setting {
        (self.get)(&Rules::default())
    }

    /// Its doc comment as one paragraph.
    pub fn doc(&self) -> String {
        self.doc.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
    }
}

const fn bounded(kind: Kind, max: Option<u8>) -> Kind {
    match (kind, max) {
        (Kind::Count(_), Some(m)) => Kind::Count(m),
        (k, _) => k,
    }
}

/// [`Rules`], its `Default` and [`FIELDS`] from one list: first the facts of the tile set
/// and the round, which the game takes from the ruleset's `SPEC` and its caller; then,
/// after `;`, the flow rules a ruleset's `GAME` sets, each with its doc, type, default and,
/// for a count, its bound.
macro_rules! rules {
    (
        $(#[doc = $sdoc:literal])*
        pub struct Rules {
            $($(#[doc = $fdoc:literal])* $fixed:ident: $fty:ty = $fdefault:expr,)*
            ;
            $($(#[doc = $doc:literal])* $name:ident: $ty:ty = $default:expr $(, max $max:literal)?;)*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Debug)]
        pub struct Rules {
            $($(#[doc = $fdoc])* pub $fixed: $fty,)*
            $($(#[doc = $doc])* pub $name: $ty,)*
        }

        impl Default for Rules {
            fn default() -> Rules {
                Rules { $($fixed: $fdefault,)* $($name: $default,)* }
            }
        }

        /// The flow rules a ruleset declares (`haidi.rulesets.GameRules`), in order.
        pub const FIELDS: &[Field] = &[$(Field {
            name: stringify!($name),
            kind: bounded(<$ty as Rule>::KIND, rules!(@max $($max)?)),
            doc: &[$($doc),*],
            get: |r| r.$name.setting(),
            set: |r, s| match <$ty as Rule>::from_setting(s) {
                Some(v) => {
                    r.$name = v;
                    true
                }
                None => false,
            },
        }),*];
    };
    (@max $max:literal) => { Some($max) };
    (@max) => { None };
}

rules! {
    /// The flow rules of one ruleset: its `GAME`, with the tile set of its `SPEC`. Each
    /// flow rule is declared here once: its Python name, type, default and doc are
    /// `haidi.rulesets.GameRules`'s, and the Python reader sets it by [`FIELDS`]. The
    /// defaults are the common rules: 13-tile hands of the 136 tiles, chows, one winner on
    /// a discard, no wilds, no flowers, nothing kept.
    pub struct Rules {
        /// The ruleset's registry name.
        name: String = String::new(),
        /// Melds of a complete hand: 4 (13-tile hands) or 5 (16).
        melds: u8 = 4,
        /// Kinds in the wall (bitmask), four copies each, and the flowers, one each (bit f).
        tiles: u64 = tiles::ALL_KINDS,
        flowers: u8 = 0,
        /// The prevailing wind, 0-3 (E S W N).
        round_wind: u8 = 0,
        ;
        /// Chows may be claimed, from the player on the left only.
        chow: bool = true;
        /// Several players calling a win on one tile: `"all"` win (通炮, 一炮多响) or
        /// `"first"` in turn order after the discarder (截胡).
        winners: Winners = Winners::First;
        /// 漏胡: a player who passes a win on a discard cannot win on a discard until it
        /// draws.
        passed_win: bool = false;
        /// Tiles left in the wall when the hand is drawn (黄庄), and `kept_per_kong` more
        /// for each kong after the first (Beijing's "执行1个杠留7砘", "2个杠留8砘").
        kept: u8 = 0, max 32;
        /// Tiles kept in the wall for each kong after the first (see `kept`).
        kept_per_kong: u8 = 0, max 8;
        /// The drawer of the last tile discards it, and the others may win on it; False:
        /// it wins on it or the hand ends ("最后一张不用打出").
        last_discard: bool = true;
        /// 海底: the last tile is offered to the seat to draw, which takes it (`{"type":
        /// "take"}`) or lets it go; taken and not won where it is not discarded, the others
        /// may win on it.
        haidi: bool = false;
        /// 海底漫游: a 海底 tile let go is offered to the next seat in turn; False: the hand
        /// is drawn ("可以选择放弃抓“海底牌”").
        haidi_roams: bool = true;
        /// The drawer of the last tile, not winning on it, discards that tile and no other
        /// ("必须打出去，不得换其他牌打出").
        last_discard_drawn: bool = false;
        /// A discard made while one tile is left to draw may only be won on, with no chow,
        /// pung or kong ("倒数第二张玩家摸进后打出的牌不允许吃碰杠，只能胡"); False: it is
        /// claimed as any other.
        before_last_won_only: bool = false;
        /// Wild tiles: `"none"`; `"indicator"`: a tile turned up from the end of the wall
        /// after the deal, the wild being the next kind (开混, 惠坯); `"turned"`: a tile
        /// turned up from the end of the wall before the deal is the wild itself (翻财神; a
        /// flower: every flower is wild).
        wild: WildRule = WildRule::None;
        /// The seat's own flower is a wild kept in the hand (坐花), not set aside.
        seat_flower_wild: bool = false;
        /// Wild tiles may not be discarded (unless the hand holds nothing else).
        wilds_kept: bool = false;
        /// 分张: when this many tiles or fewer are left to draw, each seat in turn takes
        /// one and wins on it or keeps it, with no discard, no kong and no flower replaced
        /// (0: no 分张).
        split: u8 = 0, max 8;
        /// The kept tiles are whole stacks of two: one more while a single tile tops the end
        /// of the wall, after an odd number of replacements (王牌 of 10幢半).
        kept_stacks: bool = false;
        /// A hand holding this many wilds proper (正财神) wins at once, whatever its shape
        /// (推土机; 0: never).
        instant_wilds: u8 = 0, max 8;
        /// A dealt hand may win at once where the ruleset's `evaluate(dealt=True)` says so
        /// (Changsha's 起手胡), before the dealer's first discard.
        dealt_wins: bool = false;
        /// 明听: a player may lay its ready hand open as it discards (`{"type":
        /// "open_ready", "tile": ...}`); it then wins only self-drawn, claims nothing and
        /// discards what it draws.
        open_ready: bool = false;
        /// Longgang's bars on claims: a pung let go is not made until the seat draws
        /// (过水碰); a seat chows no kind it discarded since its draw; after a chow it
        /// discards neither the tile claimed nor the one at the other end of the two it
        /// held, after a pung not the kind punged (吃牌禁止).
        claim_bars: bool = false;
        /// The dealer's concealed kongs before its first discard keep 天胡 and 地胡
        /// ("可暗杠").
        heavenly_kongs: bool = false;
        /// 地和 is a non-dealer's win before its own first discard, self-drawn or on any
        /// discard (Beijing: "闲家在一局还没有出过牌的时候构成可和牌牌型时"), not only on the
        /// dealer's first discard.
        earthly_before_own_discard: bool = false;
        /// A tile of a kind the seat melded as a pung is not discarded: it is added to the
        /// pung (补杠) or kept (小明杠).
        fourth_tile_kept: bool = false;
        /// A concealed kong may be robbed by a win on its tile that counts this pattern (an
        /// id of the ruleset's `fan_ids`, Beijing's 一条龙), scored as self-drawn; `""`:
        /// never robbed.
        rob_concealed_kong: String = String::new();
        /// A concealed kong (暗杠) shows its kind to the other seats (one tile laid face
        /// up); False: they see a concealed kong and not its kind. A kong that may be
        /// robbed (`rob_concealed_kong`) is shown whatever this says: it is offered.
        concealed_kong_shown: bool = false;
        /// 烧庄: a wind the dealer discards first must be discarded by each seat after it
        /// in the first go-round that holds it, all before it having followed.
        follow_wind: bool = false;
        /// Every other seat is asked about each tile offered (a discard, a kong that may be
        /// robbed, the 海底 tile shown), a seat with no claim to pass, so that who is asked
        /// tells nothing of the hands. A table's setting rather than a ruleset's:
        /// `Game(..., ask_every_seat=True)`; PettingZoo's environment plays with it.
        ask_every_seat: bool = false;
    }
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

    /// Sets the flow rule `name` (one of [`FIELDS`]); the error says what is wrong with
    /// the name or the value.
    pub fn set(&mut self, name: &str, value: Setting) -> std::result::Result<(), String> {
        let field = Field::named(name)?;
        let fits = match (field.kind, &value) {
            (Kind::Count(max), Setting::Count(n)) => n <= &max,
            _ => true,
        };
        if fits && (field.set)(self, value.clone()) {
            return Ok(());
        }
        let shown = match value {
            Setting::Flag(b) => Spelling::current().flag(b).to_string(),
            Setting::Count(n) => n.to_string(),
            Setting::Text(t) => Spelling::current().text(&t),
        };
        Err(format!("game rules: {name} must be {}, not {shown}", field.kind.describe()))
    }
}

impl Kind {
    /// What a value of this kind is, for an error.
    pub fn describe(&self) -> String {
        match self {
            Kind::Flag => TRUE_OR_FALSE.get().into(),
            Kind::Count(max) => format!("an int from 0 to {max}"),
            Kind::Choice(names) => {
                let names: Vec<String> = names.iter().map(|n| Spelling::current().text(n)).collect();
                format!("one of {}", names.join(", "))
            }
            Kind::Text => Phrase { python: "a str", json: "a string" }.get().into(),
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
        let w = Wilds { kinds: wild_kinds, extra, drawable: 0 };
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
        // each kind is given room for every wild held or still to be drawn besides its
        // four.
        let e = self.engine();
        let mut v = View::new(hand, e.tiles, wild_kinds, extra);
        let mut cap = 4u8;
        if self.relaxed.wilds_beyond_copies {
            cap += v.wilds + v.drawable;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flow_rule_is_set_and_read_back_by_its_name() {
        let mut names: Vec<&str> = FIELDS.iter().map(|f| f.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FIELDS.len());
        let mut r = Rules::default();
        r.set("split", Setting::Count(4)).unwrap();
        r.set("winners", Setting::Text("all".into())).unwrap();
        r.set("chow", Setting::Flag(false)).unwrap();
        assert_eq!((r.split, r.winners, r.chow), (4, Winners::All, false));
        assert_eq!((Field::named("winners").unwrap().get)(&r), Setting::Text("all".into()));
        assert_eq!(Field::named("kept").unwrap().kind, Kind::Count(32));
        assert_eq!(Field::named("chow").unwrap().default(), Setting::Flag(true));
    }

    #[test]
    fn a_rule_not_declared_or_not_of_its_kind_is_refused_by_name() {
        let mut r = Rules::default();
        assert_eq!(r.set("melds", Setting::Count(5)), Err("game rules: no rule is named 'melds'".into()));
        assert_eq!(
            r.set("split", Setting::Count(9)),
            Err("game rules: split must be an int from 0 to 8, not 9".into())
        );
        assert_eq!(
            r.set("wild", Setting::Text("all".into())),
            Err("game rules: wild must be one of 'none', 'indicator', 'turned', not 'all'".into())
        );
        assert_eq!(r.set("chow", Setting::Count(1)), Err("game rules: chow must be True or False, not 1".into()));
    }
}
