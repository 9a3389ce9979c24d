//! The words patterns are written in: small predicates over the facts of an arrangement
//! and of the situation, combined with and, or and not. Each evaluates to a count (a
//! predicate to 0 or 1), so a pattern that can occur several times (字刻, 四喜) counts
//! them.
//!
//! Rulesets write their rules as data (in Python, `haidi.rulesets._scheme`); they are
//! read into these types once, when the ruleset is built.

use super::arrange::Form;
use super::facts::{Facts, Situation};
use super::group::{Group, Placement, Role, Shape};
use crate::error::{HandError, Result};
use crate::tiles::{Tile, ALL_KINDS, EAST, KINDS};

/// A set of tile kinds a rule names: fixed, or given by the situation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KindSet {
    Fixed(u64),
    /// The player's seat wind.
    SeatWind,
    /// The prevalent wind.
    RoundWind,
    /// The wild kinds of the deal.
    Wilds,
    Union(Vec<KindSet>),
    Minus(Box<KindSet>, Box<KindSet>),
    /// Suits rather than kinds (bit 0 characters ... bit 3 honours), for [`Rule::Straight`].
    Suits(u8),
    /// The suits of the wild kinds.
    WildSuits,
}

impl KindSet {
    /// The set as a mask in this situation.
    pub fn resolve(&self, s: &Situation) -> u64 {
        match self {
            KindSet::Fixed(m) => *m,
            KindSet::SeatWind => 1 << (EAST + s.seat),
            KindSet::RoundWind => 1 << (EAST + s.round),
            KindSet::Wilds => s.wild_kinds,
            KindSet::Union(v) => v.iter().fold(0, |m, k| m | k.resolve(s)),
            KindSet::Minus(a, b) => a.resolve(s) & !b.resolve(s),
            KindSet::Suits(m) => *m as u64,
            KindSet::WildSuits => {
                crate::tiles::mask_tiles(s.wild_kinds).fold(0u64, |m, t| m | 1 << crate::tiles::suit(t))
            }
        }
    }

    /// Whether the set is the same in every situation.
    pub fn is_fixed(&self) -> bool {
        match self {
            KindSet::Fixed(_) | KindSet::Suits(_) => true,
            KindSet::Union(v) => v.iter().all(KindSet::is_fixed),
            KindSet::Minus(a, b) => a.is_fixed() && b.is_fixed(),
            KindSet::SeatWind | KindSet::RoundWind | KindSet::Wilds | KindSet::WildSuits => false,
        }
    }
}

/// A number a rule compares or counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantity {
    Chows,
    /// Pungs and kongs.
    Triplets,
    Kongs,
    Pairs,
    /// Kinds that are two pairs of a seven-pairs hand.
    DoubledPairs,
    /// Declared melds, and those of them exposed (not concealed kongs).
    Declared,
    Exposed,
    /// Concealed pungs and kongs (a pung completed on a discard is exposed).
    ConcealedTriplets,
    /// Groups of wilds alone.
    FreeMelds,
    FreePairs,
    DragonSets,
    /// Most chows of one kind.
    SameChows,
    /// Suits among the tiles (characters, dots, bamboo; honours not counted).
    Suits,
    /// 1 when an honour is among the tiles.
    Honours,
    /// The wilds proper held (the wild kind's copies, or the flowers when the wilds are
    /// flowers); other wilds held (a seat flower); all wilds held.
    WildTiles,
    ExtraWilds,
    Wilds,
    /// Wild kinds in the deal.
    WildKinds,
    /// Wilds in the groups (a player who did not win may leave some out), wilds standing
    /// for a wild kind, the seat flower (0 or 1) and the other wilds among those used.
    WildsUsed,
    HomeWilds,
    SeatFlowerUsed,
    RealWildsUsed,
    /// 1 when the seat flower is held; flowers set aside; flowers held; 1 with all four
    /// seasons held; 1 when the wilds are flowers.
    SeatFlower,
    GuestFlowers,
    Flowers,
    AllFlowers,
    FlowerWilds,
    /// Kinds four tiles stand for.
    Fours,
    /// The seat (0 the dealer); 1 when the situation names the seat; the discarder's
    /// seat (4 when none).
    Seat,
    SeatGiven,
    /// 1 when the situation is a win (it has a winning tile).
    Won,
    Discarder,
    /// After the patterns are counted: the total, the sum of the patterns' values, and
    /// how many patterns count.
    Total,
    Value,
    FanCount,
}

impl Quantity {
    pub const NAMES: [(&'static str, Quantity); 35] = [
        ("chows", Quantity::Chows),
        ("triplets", Quantity::Triplets),
        ("kongs", Quantity::Kongs),
        ("pairs", Quantity::Pairs),
        ("doubled_pairs", Quantity::DoubledPairs),
        ("declared", Quantity::Declared),
        ("exposed", Quantity::Exposed),
        ("concealed_triplets", Quantity::ConcealedTriplets),
        ("free_melds", Quantity::FreeMelds),
        ("free_pairs", Quantity::FreePairs),
        ("dragon_sets", Quantity::DragonSets),
        ("same_chows", Quantity::SameChows),
        ("suits", Quantity::Suits),
        ("honours", Quantity::Honours),
        ("wild_tiles", Quantity::WildTiles),
        ("extra_wilds", Quantity::ExtraWilds),
        ("wilds", Quantity::Wilds),
        ("wild_kinds", Quantity::WildKinds),
        ("wilds_used", Quantity::WildsUsed),
        ("home_wilds", Quantity::HomeWilds),
        ("seat_flower_used", Quantity::SeatFlowerUsed),
        ("real_wilds_used", Quantity::RealWildsUsed),
        ("seat_flower", Quantity::SeatFlower),
        ("guest_flowers", Quantity::GuestFlowers),
        ("flowers", Quantity::Flowers),
        ("all_flowers", Quantity::AllFlowers),
        ("flower_wilds", Quantity::FlowerWilds),
        ("fours", Quantity::Fours),
        ("seat", Quantity::Seat),
        ("seat_given", Quantity::SeatGiven),
        ("won", Quantity::Won),
        ("discarder", Quantity::Discarder),
        ("total", Quantity::Total),
        ("value", Quantity::Value),
        ("fan_count", Quantity::FanCount),
    ];

    pub fn named(name: &str) -> Result<Quantity> {
        Quantity::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, q)| q)
            .ok_or_else(|| HandError::invalid(format!("rule: no quantity {name:?}")))
    }

    /// The kind of facts it is (see [`Reads`]): every quantity is classified here, by a
    /// match with no catch-all arm.
    pub fn reads(self) -> u16 {
        use Quantity as Q;
        match self {
            Q::Chows
            | Q::Triplets
            | Q::Pairs
            | Q::DoubledPairs
            | Q::FreeMelds
            | Q::FreePairs
            | Q::DragonSets
            | Q::SameChows
            | Q::Suits
            | Q::Honours
            | Q::WildsUsed
            | Q::HomeWilds
            | Q::Fours => Reads::GROUPS,
            // Kongs are declared.
            Q::Kongs | Q::Declared | Q::Exposed => Reads::DECLARED,
            // A pung the winning tile completes on a discard is exposed.
            Q::ConcealedTriplets => Reads::GROUPS | Reads::PLACEMENT,
            Q::SeatFlowerUsed | Q::RealWildsUsed => Reads::USED_WILDS,
            Q::WildTiles
            | Q::ExtraWilds
            | Q::Wilds
            | Q::WildKinds
            | Q::SeatFlower
            | Q::GuestFlowers
            | Q::Flowers
            | Q::AllFlowers
            | Q::FlowerWilds
            | Q::Seat
            | Q::SeatGiven
            | Q::Won
            | Q::Discarder => Reads::SITUATION,
            Q::Total | Q::Value | Q::FanCount => Reads::TOTALS,
        }
    }

    /// Its bit in [`Reads::quantities`].
    pub fn bit(self) -> u64 {
        1 << self as u32
    }

    /// Whether it is known only after the patterns are counted.
    pub fn after_scoring(self) -> bool {
        self.reads() == Reads::TOTALS
    }

    /// Whether it is a fact of the situation alone (the same for every arrangement).
    pub fn of_situation(self) -> bool {
        self.reads() == Reads::SITUATION
    }
}

// Every quantity has a bit of a `u64`.
const _: () = assert!(Quantity::NAMES.len() <= 64);

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn named(op: &str) -> Result<Cmp> {
        Ok(match op {
            "==" => Cmp::Eq,
            "!=" => Cmp::Ne,
            "<" => Cmp::Lt,
            "<=" => Cmp::Le,
            ">" => Cmp::Gt,
            ">=" => Cmp::Ge,
            _ => return Err(HandError::invalid(format!("rule: no comparison {op:?}"))),
        })
    }

    fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }

    /// Whether `a op b` holds for some `a` of `from` or more.
    fn holds_from(self, from: i32, b: i32) -> bool {
        match self {
            Cmp::Eq => b >= from,
            Cmp::Lt => from < b,
            Cmp::Le => from <= b,
            Cmp::Ne | Cmp::Gt | Cmp::Ge => true,
        }
    }

    /// The comparison that holds where this one does not.
    fn contrary(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }
}

/// A rule. Sets are referred to by their index in the ruleset's list of sets, which is
/// resolved once per situation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    Always,
    Not(Box<Rule>),
    /// When every rule holds, the largest count among them (a condition counts 1, so
    /// `count & condition` is the count where the condition holds).
    All(Vec<Rule>),
    /// The largest count.
    Any(Vec<Rule>),
    /// A flag of the situation.
    Flag(u8),
    /// The arrangement's form is one of these (bits of [`super::arrange::Form::bit`]).
    Form(u32),
    Is(Quantity, Cmp, i32),
    Count(Quantity),
    /// Another rule's count compared (``triplets(WINDS) >= 4``).
    Compare(Box<Rule>, Cmp, i32),
    /// Pungs and kongs of kinds in the set (a count).
    Triplets(u8),
    /// Pairs of kinds in the set (a count).
    Pairs(u8),
    /// Every tile stands for a kind in the set.
    AllTiles(u8),
    /// Some tile stands for a kind in the set.
    AnyTile(u8),
    /// Chows 123, 456 and 789 of one suit of the (suit) set.
    Straight(u8),
    /// The winning tile sits in one of these roles (bits by [`Role`] order) as a kind of
    /// the set.
    Win {
        roles: u8,
        kinds: u8,
    },
    /// The hand waited on kinds of the set only, the wild kinds aside.
    OnlyWait(u8),
    /// Pungs and kongs (or kongs only) of `len` consecutive ranks of one suit.
    Run {
        kongs: bool,
        len: u8,
    },
    /// Kongs of one rank in all three suits.
    SameRankKongs,
    /// Some of these patterns (bits by index) counts: for rules judged after the others.
    /// A count of 1 or 0, so that the patterns named side by side in an `Any` are one
    /// mask, read at once.
    Patterns(u64),
}

/// What a rule needs to count, as masks tested before the rule is walked: flags set
/// and flags clear, and the forms it may count in. Worked out once, when the ruleset is
/// built (the flags and forms of its [`Conditions`]); most rules that do not count fail
/// these tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Flags that must be set, and flags that must be clear.
    pub on: u32,
    pub off: u32,
    /// The form's bit must be among these ...
    pub forms: u32,
    /// ... and not among these (the facts of the situation alone have no form: 0).
    pub not_forms: u32,
}

impl Needs {
    /// Nothing known: every situation may count.
    pub const NONE: Needs = Needs { on: 0, off: 0, forms: u32::MAX, not_forms: 0 };

    /// Whether a rule with these needs may count with `flags` in form `form` (a form's
    /// bit, or 0 for the situation alone). False only where it counts 0.
    #[inline]
    pub fn met(&self, flags: u32, form: u32) -> bool {
        self.met_flags(flags) && (self.forms == u32::MAX || form & self.forms != 0) && form & self.not_forms == 0
    }

    /// Whether a rule with these needs may count with `flags`, in some form.
    #[inline]
    pub fn met_flags(&self, flags: u32) -> bool {
        flags & self.on == self.on && flags & self.off == 0 && self.forms != 0
    }
}

/// What holds wherever a rule counts (above 0), read once from the rule's shape when the
/// ruleset is built: the flags and forms it needs, and for each quantity it compares the
/// values it may count at (bit `x` for the value `x`, the last of [`ADMIT_ROWS`] bits for
/// that value and more). One reader gives the tests made before a rule is walked
/// ([`Needs`]), the tables of [`Admits`] and the patterns that never count together
/// ([`Conditions::never_with`]).
///
/// Read: a flag or a form, and their negations; a comparison `Is`, and a negated one as
/// its contrary; a count, at least 1 (a count of pungs or pairs of some kinds is at most
/// that of all pungs or pairs), and a count compared, at least the least value it may
/// take; every part of an `All`; and of an `Any`, what every part needs. Quantities
/// known only after scoring are left out, and so is anything else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    pub needs: Needs,
    /// Quantities compared, each once, and the values where the rule may count.
    pub values: Vec<(Quantity, u16)>,
}

impl Conditions {
    /// Nothing known.
    pub const NONE: Conditions = Conditions { needs: Needs::NONE, values: Vec::new() };

    pub fn of(rule: &Rule) -> Conditions {
        let needing = |needs: Needs| Conditions { needs, values: vec![] };
        let compared = |q: Quantity, op: Cmp, v: i32| Conditions {
            needs: Needs::NONE,
            values: if q.after_scoring() { vec![] } else { vec![(q, values_where(op, v))] },
        };
        match rule {
            Rule::Flag(b) => needing(Needs { on: 1 << b, ..Needs::NONE }),
            Rule::Form(m) => needing(Needs { forms: *m, ..Needs::NONE }),
            Rule::Is(q, op, v) => compared(*q, *op, *v),
            Rule::Count(q) => compared(*q, Cmp::Ge, 1),
            Rule::Triplets(_) => compared(Quantity::Triplets, Cmp::Ge, 1),
            Rule::Pairs(_) => compared(Quantity::Pairs, Cmp::Ge, 1),
            Rule::Not(r) => match &**r {
                Rule::Flag(b) => needing(Needs { off: 1 << b, ..Needs::NONE }),
                Rule::Form(m) => needing(Needs { not_forms: *m, ..Needs::NONE }),
                Rule::Is(q, op, v) => compared(*q, op.contrary(), *v),
                // Where a count is 0, or a combination fails: nothing read here.
                Rule::Always
                | Rule::Not(_)
                | Rule::All(_)
                | Rule::Any(_)
                | Rule::Count(_)
                | Rule::Compare(..)
                | Rule::Triplets(_)
                | Rule::Pairs(_)
                | Rule::AllTiles(_)
                | Rule::AnyTile(_)
                | Rule::Straight(_)
                | Rule::Win { .. }
                | Rule::OnlyWait(_)
                | Rule::Run { .. }
                | Rule::SameRankKongs
                | Rule::Patterns(_) => Conditions::NONE,
            },
            Rule::Compare(r, op, v) => {
                // The least a count is where `op v` holds of it, when that is above 0.
                let least = match op {
                    Cmp::Eq | Cmp::Ge => *v,
                    Cmp::Gt => v.saturating_add(1),
                    Cmp::Ne | Cmp::Lt | Cmp::Le => 0,
                };
                if least <= 0 {
                    return Conditions::NONE;
                }
                match &**r {
                    Rule::Count(q) => compared(*q, Cmp::Ge, least),
                    Rule::Triplets(_) => compared(Quantity::Triplets, Cmp::Ge, least),
                    Rule::Pairs(_) => compared(Quantity::Pairs, Cmp::Ge, least),
                    // Counts whose values are not a quantity's.
                    Rule::Always
                    | Rule::Not(_)
                    | Rule::All(_)
                    | Rule::Any(_)
                    | Rule::Flag(_)
                    | Rule::Form(_)
                    | Rule::Is(..)
                    | Rule::Compare(..)
                    | Rule::AllTiles(_)
                    | Rule::AnyTile(_)
                    | Rule::Straight(_)
                    | Rule::Win { .. }
                    | Rule::OnlyWait(_)
                    | Rule::Run { .. }
                    | Rule::SameRankKongs
                    | Rule::Patterns(_) => Conditions::NONE,
                }
            }
            Rule::All(rules) => rules.iter().map(Conditions::of).fold(Conditions::NONE, Conditions::and),
            Rule::Any(rules) => rules.iter().map(Conditions::of).reduce(Conditions::or).unwrap_or(Conditions::NONE),
            // What holds where these count is not read as needs or values.
            Rule::Always
            | Rule::AllTiles(_)
            | Rule::AnyTile(_)
            | Rule::Straight(_)
            | Rule::Win { .. }
            | Rule::OnlyWait(_)
            | Rule::Run { .. }
            | Rule::SameRankKongs
            | Rule::Patterns(_) => Conditions::NONE,
        }
    }

    /// What holds where both hold.
    fn and(mut self, other: Conditions) -> Conditions {
        let (a, b) = (self.needs, other.needs);
        self.needs = Needs {
            on: a.on | b.on,
            off: a.off | b.off,
            forms: a.forms & b.forms,
            not_forms: a.not_forms | b.not_forms,
        };
        for (q, m) in other.values {
            match self.values.iter_mut().find(|(p, _)| *p == q) {
                Some((_, mine)) => *mine &= m,
                None => self.values.push((q, m)),
            }
        }
        self
    }

    /// What holds where either holds.
    fn or(self, other: Conditions) -> Conditions {
        let (a, b) = (self.needs, other.needs);
        let needs = Needs {
            on: a.on & b.on,
            off: a.off & b.off,
            forms: a.forms | b.forms,
            not_forms: a.not_forms & b.not_forms,
        };
        let values = self
            .values
            .into_iter()
            .filter_map(|(q, m)| other.values.iter().find(|(p, _)| *p == q).map(|&(_, n)| (q, m | n)))
            .collect();
        Conditions { needs, values }
    }

    /// Whether the two rules never count together: they need a flag set and clear, forms
    /// apart, or values of a quantity apart (`doubled_pairs == 1` and `>= 2`, `honours ==
    /// 0` and `== 1`). Either counting rules the other out, so a bound adds one of them.
    pub fn never_with(&self, other: &Conditions) -> bool {
        let (a, b) = (&self.needs, &other.needs);
        let forms = |n: &Needs| n.forms & !n.not_forms;
        a.on & b.off != 0
            || a.off & b.on != 0
            || forms(a) & forms(b) == 0
            || self.values.iter().any(|&(q, m)| other.values.iter().any(|&(p, n)| p == q && m & n == 0))
    }
}

/// The values (bits of the rows of [`ADMIT_ROWS`]) where `x op v` holds: for the last
/// row, for some value of it or more.
fn values_where(op: Cmp, v: i32) -> u16 {
    (0..ADMIT_ROWS as i32).fold(0u16, |m, x| {
        let holds = if x + 1 < ADMIT_ROWS as i32 { op.holds(x, v) } else { op.holds_from(x, v) };
        m | (holds as u16) << x
    })
}

/// Quantities a rule compares, as tables of the rules that may count at each value
/// (bit `i` for the `i`-th rule): for each quantity, its values 0 to 15, the last standing
/// for 15 and more. Worked out once, when the ruleset is built, from the rules'
/// [`Conditions`]: a rule missing from the row of a quantity's value counts 0
/// there, so it is not walked. One table lookup a quantity rules out at once the many
/// rules that would fail a comparison (清一色's one suit, 对对胡's five pungs ...).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Admits {
    pub tables: Vec<(Quantity, [u64; ADMIT_ROWS])>,
}

/// The rows of an [`Admits`] table: the values 0 to 14, and 15 or more.
pub const ADMIT_ROWS: usize = 16;

// A row is a bit of the values of [`Conditions`].
const _: () = assert!(ADMIT_ROWS <= u16::BITS as usize);

impl Admits {
    /// The tables of the rules' conditions (the `i`-th rule's `i`-th) on quantities `take`
    /// accepts, at most `most` of them, those that rule out the most first.
    pub fn of<'c>(
        conditions: impl Iterator<Item = &'c Conditions>,
        take: impl Fn(Quantity) -> bool,
        most: usize,
    ) -> Admits {
        let mut tables: Vec<(Quantity, [u64; ADMIT_ROWS])> = vec![];
        for (i, c) in conditions.enumerate() {
            for &(q, values) in c.values.iter().filter(|(q, _)| take(*q)) {
                let at = tables.iter().position(|t| t.0 == q).unwrap_or_else(|| {
                    tables.push((q, [u64::MAX; ADMIT_ROWS]));
                    tables.len() - 1
                });
                for (x, row) in tables[at].1.iter_mut().enumerate() {
                    if values >> x & 1 == 0 {
                        *row &= !(1u64 << i);
                    }
                }
            }
        }
        let ruled_out = |t: &[u64; ADMIT_ROWS]| t.iter().map(|row| row.count_zeros()).sum::<u32>();
        tables.sort_by_key(|(_, t)| std::cmp::Reverse(ruled_out(t)));
        tables.truncate(most);
        Admits { tables }
    }

    /// The rules that may count in `ctx`, by bit.
    #[inline]
    pub fn admitted(&self, ctx: &Context) -> u64 {
        let mut may = u64::MAX;
        for (q, rows) in &self.tables {
            may &= rows[ctx.quantity(*q).clamp(0, ADMIT_ROWS as i32 - 1) as usize];
        }
        may
    }
}

/// What a rule is judged against.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    pub facts: &'a Facts,
    pub situation: &'a Situation,
    pub sets: &'a [u64],
    /// The waits of the hand, worked out when first asked for.
    pub waits: Option<&'a super::situation::Waits<'a>>,
    /// Patterns counted so far, by bit; and the total, the sum of values and the number
    /// of patterns (for rules judged after scoring).
    pub counted: u64,
    pub total: i32,
    pub value: i32,
    pub fan_count: i32,
}

/// The count of `All(rules)` from the count of each: 0 when one is 0, else the largest
/// (see [`Rule::All`]); one combinator for the count and for its bound.
fn all_of(rules: &[Rule], mut count: impl FnMut(&Rule) -> u32) -> u32 {
    let mut most = 1;
    for r in rules {
        let n = count(r);
        if n == 0 {
            return 0;
        }
        most = most.max(n);
    }
    most
}

impl<'a> Context<'a> {
    /// The context of `facts` in `situation`, before any pattern is counted.
    pub fn new(
        facts: &'a Facts,
        situation: &'a Situation,
        sets: &'a [u64],
        waits: Option<&'a super::situation::Waits<'a>>,
    ) -> Self {
        Context { facts, situation, sets, waits, counted: 0, total: 0, value: 0, fan_count: 0 }
    }
}

impl Context<'_> {
    fn quantity(&self, q: Quantity) -> i32 {
        let f = self.facts;
        let s = self.situation;
        (match q {
            Quantity::Chows => f.n_chows,
            Quantity::Triplets => f.n_triplets,
            Quantity::Kongs => f.n_kongs,
            Quantity::Pairs => f.n_pairs,
            Quantity::DoubledPairs => f.doubled,
            Quantity::Declared => f.declared,
            Quantity::Exposed => f.exposed,
            Quantity::ConcealedTriplets => f.concealed_triplets,
            Quantity::FreeMelds => f.free_melds,
            Quantity::FreePairs => f.free_pairs,
            Quantity::DragonSets => f.dragon_sets,
            Quantity::SameChows => f.same_chows,
            Quantity::Suits => (f.suits & 0b111).count_ones() as u8,
            Quantity::Honours => (f.suits >> 3) & 1,
            Quantity::WildTiles => s.wild_tiles,
            Quantity::ExtraWilds => s.extra_wilds,
            Quantity::Wilds => s.wild_tiles + s.extra_wilds,
            Quantity::WildKinds => s.wild_kinds.count_ones() as u8,
            Quantity::WildsUsed => f.wilds_used,
            Quantity::HomeWilds => f.home_wilds,
            Quantity::SeatFlowerUsed => f.seat_flower_used,
            Quantity::RealWildsUsed => f.real_wilds_used,
            Quantity::SeatFlower => s.seat_flower as u8,
            Quantity::GuestFlowers => s.guest_flowers,
            Quantity::Flowers => s.flowers.count_ones() as u8,
            Quantity::AllFlowers => (s.flowers & 0b1111 == 0b1111) as u8,
            Quantity::FlowerWilds => s.flower_wilds as u8,
            Quantity::Fours => f.fours,
            Quantity::Seat => s.seat,
            Quantity::SeatGiven => s.seat_given as u8,
            Quantity::Won => s.win.is_some() as u8,
            Quantity::Discarder => s.discarder.unwrap_or(4),
            Quantity::Total => return self.total,
            Quantity::Value => return self.value,
            Quantity::FanCount => return self.fan_count,
        }) as i32
    }

    fn set(&self, i: u8) -> u64 {
        self.sets.get(i as usize).copied().unwrap_or(0)
    }

    /// The rule's count here, its needs tested first.
    #[inline]
    pub fn judge(&self, rule: &Rule, needs: &Needs) -> u32 {
        if needs.met(self.situation.flags, self.facts.form) {
            self.eval(rule)
        } else {
            0
        }
    }

    /// The rule's count here.
    pub fn eval(&self, rule: &Rule) -> u32 {
        let f = self.facts;
        match rule {
            Rule::Always => 1,
            Rule::Not(r) => (self.eval(r) == 0) as u32,
            Rule::All(rules) => all_of(rules, |r| self.eval(r)),
            Rule::Any(rules) => rules.iter().map(|r| self.eval(r)).max().unwrap_or(0),
            Rule::Flag(bit) => self.situation.flag(*bit) as u32,
            Rule::Form(mask) => (f.form & mask != 0) as u32,
            Rule::Is(q, op, v) => op.holds(self.quantity(*q), *v) as u32,
            Rule::Compare(r, op, v) => op.holds(self.eval(r) as i32, *v) as u32,
            Rule::Count(q) => self.quantity(*q).max(0) as u32,
            Rule::Triplets(set) => {
                let m = self.set(*set);
                (f.triplets & m).count_ones() + (f.triplets_twice & m).count_ones()
            }
            Rule::Pairs(set) => {
                let m = self.set(*set);
                (f.pairs & m).count_ones() + (f.pairs_twice & m).count_ones()
            }
            Rule::AllTiles(set) => (f.kinds != 0 && f.kinds & !self.set(*set) == 0) as u32,
            Rule::AnyTile(set) => (f.kinds & self.set(*set) != 0) as u32,
            Rule::Straight(suits) => {
                let suits = self.set(*suits);
                (0..3).any(|s| suits >> s & 1 == 1 && f.chows >> (9 * s) & 0b1001001 == 0b1001001) as u32
            }
            Rule::Win { roles, kinds } => {
                f.win.is_some_and(|p| roles >> role_bit(p.role) & 1 == 1 && self.set(*kinds) >> p.kind & 1 == 1) as u32
            }
            Rule::OnlyWait(set) => {
                // A drawn wild completes every ready hand; the waits are the other kinds.
                self.waits.is_some_and(|w| w.only_among(self.set(*set))) as u32
            }
            Rule::Run { kongs, len } => {
                let kinds = if *kongs { f.kongs } else { f.triplets };
                (0..3).any(|s| {
                    let suit = kinds >> (9 * s) & 0x1FF;
                    let run = (1..*len as u64).fold(suit, |m, i| m & suit >> i);
                    run != 0
                }) as u32
            }
            Rule::SameRankKongs => {
                let k = f.kongs;
                (k & k >> 9 & k >> 18 & 0x1FF != 0) as u32
            }
            Rule::Patterns(mask) => (self.counted & mask != 0) as u32,
        }
    }
}

/// The forms (bits) whose groups hold three tiles or more, which the winning tile may
/// complete in another role than a single's: the standard form, 八对半 and a 陪家's
/// partial hand.
const GROUPED_FORMS: u32 = Form::Standard.bit() | Form::EightPairs.bit() | Form::Partial.bit();

/// What is known of the arrangements when bounding a rule's count.
#[derive(Clone, Copy, Debug)]
pub enum Known {
    /// The context's facts are those of the declared melds alone. Their forms (bits of
    /// [`super::arrange::Form::bit`], `u32::MAX` for any); the kinds of the real
    /// concealed tiles; the suits in which a complete hand may hold a straight; the suits
    /// (bit 3 the honours) the real tiles and declared melds hold; the wilds; whether they
    /// hold a chow, when that is known (the form is then the standard form alone).
    Form { form: u32, held: u64, straights: u8, suits: u8, wilds: u8, chows: Option<bool> },
    /// The context's facts are those of their groups but free melds and pairs of any
    /// kinds still to come (the form, the real tiles and the declared melds among them);
    /// `room`, the kinds with a copy left for those to stand for.
    Groups { free_melds: u32, free_pairs: u32, room: u64 },
}

/// Bounds the count of rules over the arrangements of a situation that fit what is
/// known: exact for what reads the situation alone (and, once groups are known, the
/// form and the declared melds), at least the count for the rest.
pub struct Bound<'a> {
    pub ctx: Context<'a>,
    pub known: Known,
    /// The hand's melds.
    pub melds: u32,
    /// Where the winning tile may sit, when that is known.
    pub places: Option<&'a [Placement]>,
    /// Patterns sure to count, and those that may (for rules judged after the others).
    pub sure: u64,
    pub possible: u64,
}

impl<'a> Bound<'a> {
    /// A bound of what `known` says of a hand of `melds` melds and a pair, the winning
    /// tile in one of `places` where they are known; before any pattern is judged.
    pub fn new(ctx: Context<'a>, known: Known, melds: u32, places: Option<&'a [Placement]>) -> Self {
        Bound { ctx, known, melds, places, sure: 0, possible: 0 }
    }

    /// At least the rule's count in any of the arrangements.
    pub fn most(&self, rule: &Rule) -> u32 {
        // All and Any count as their parts do, each part bounded (a part the situation
        // or the known groups decide is judged exactly): classifying the whole first would
        // walk each part again at every level.
        let ctx = &self.ctx;
        let free = match rule {
            Rule::All(_) | Rule::Any(_) => None,
            Rule::Always
            | Rule::Not(_)
            | Rule::Flag(_)
            | Rule::Form(_)
            | Rule::Is(..)
            | Rule::Count(_)
            | Rule::Compare(..)
            | Rule::Triplets(_)
            | Rule::Pairs(_)
            | Rule::AllTiles(_)
            | Rule::AnyTile(_)
            | Rule::Straight(_)
            | Rule::Win { .. }
            | Rule::OnlyWait(_)
            | Rule::Run { .. }
            | Rule::SameRankKongs
            | Rule::Patterns(_) => {
                let reads = rule.facts_read();
                if reads.of_situation() {
                    return ctx.eval(rule);
                }
                match self.known {
                    Known::Groups { .. } if reads.of_groups_known() => return ctx.eval(rule),
                    // Every group known: only the place of the winning tile is not.
                    Known::Groups { free_melds: 0, free_pairs: 0, .. }
                        if !reads.placement() && reads.before_scoring() =>
                    {
                        return ctx.eval(rule)
                    }
                    Known::Groups { free_melds, free_pairs, .. } => Some((free_melds, free_pairs)),
                    // The context's facts are those of the declared melds.
                    Known::Form { .. } if reads.of_declared() => return ctx.eval(rule),
                    Known::Form { .. } => None,
                }
            }
        };
        let f = ctx.facts;
        match rule {
            Rule::All(rules) => all_of(rules, |r| self.most(r)),
            Rule::Any(rules) => rules.iter().map(|r| self.most(r)).max().unwrap_or(0),
            Rule::Is(q, op, v) => match self.range(*q) {
                Some((lo, hi)) => (lo..=hi).any(|x| op.holds(x, *v)) as u32,
                None => 1,
            },
            Rule::Count(q) if q.after_scoring() => u32::MAX >> 8,
            // Groups (and pairs: eight of them at most) or tiles counted.
            Rule::Count(_) => 4 * self.melds + 2,
            Rule::Win { roles, kinds } => {
                let kinds = ctx.set(*kinds);
                // Where every form is of pairs and singles, the tile completes a pair or
                // is a single.
                let roles = &match self.known {
                    Known::Form { form, .. } if form & GROUPED_FORMS == 0 => roles & 1 << role_bit(Role::Single),
                    _ => *roles,
                };
                match (self.places, ctx.situation.win) {
                    (Some(_), _) => self.win_places(*roles, kinds).is_some_and(|(some, _)| some) as u32,
                    // A real winning tile stands for its own kind, in a role its rank
                    // and the tiles beside it allow when the groups are not known.
                    (None, Some((t, false))) => {
                        let roles = match self.known {
                            Known::Form { held, wilds, .. } => roles & roles_of(t, held, wilds),
                            Known::Groups { .. } => *roles,
                        };
                        (roles != 0 && kinds >> t & 1 == 1) as u32
                    }
                    // A wild winning tile may stand for any kind of the set, the other
                    // wilds and the tiles held beside it.
                    (None, Some((_, true))) => match self.known {
                        Known::Form { held, wilds, .. } => {
                            let others = wilds.saturating_sub(1);
                            crate::tiles::mask_tiles(kinds).any(|k| roles & roles_of(k, held, others) != 0) as u32
                        }
                        Known::Groups { .. } => 1,
                    },
                    // No winning tile: a hand that did not win.
                    (None, None) => 1,
                }
            }
            Rule::Form(mask) => match self.known {
                Known::Form { form, .. } => (form & mask != 0) as u32,
                Known::Groups { .. } => (f.form & mask != 0) as u32,
            },
            // Not in a role: where no place of the winning tile is in it.
            Rule::Not(r) => match **r {
                Rule::Win { roles, kinds } => {
                    self.win_places(roles, ctx.set(kinds)).map_or(1, |(_, every)| !every as u32)
                }
                Rule::Always
                | Rule::Not(_)
                | Rule::All(_)
                | Rule::Any(_)
                | Rule::Flag(_)
                | Rule::Form(_)
                | Rule::Is(..)
                | Rule::Count(_)
                | Rule::Compare(..)
                | Rule::Triplets(_)
                | Rule::Pairs(_)
                | Rule::AllTiles(_)
                | Rule::AnyTile(_)
                | Rule::Straight(_)
                | Rule::OnlyWait(_)
                | Rule::Run { .. }
                | Rule::SameRankKongs
                | Rule::Patterns(_) => 1,
            },
            Rule::Compare(r, op, v) => match **r {
                // A count of pungs or pairs is at least that of the groups known (every
                // arrangement holds them) and at most its bound.
                Rule::Triplets(_) | Rule::Pairs(_) => {
                    let (lo, hi) = (ctx.eval(r), self.most(r));
                    (lo..=hi.max(lo)).any(|x| op.holds(x as i32, *v)) as u32
                }
                Rule::Always
                | Rule::Not(_)
                | Rule::All(_)
                | Rule::Any(_)
                | Rule::Flag(_)
                | Rule::Form(_)
                | Rule::Is(..)
                | Rule::Count(_)
                | Rule::Compare(..)
                | Rule::AllTiles(_)
                | Rule::AnyTile(_)
                | Rule::Straight(_)
                | Rule::Win { .. }
                | Rule::OnlyWait(_)
                | Rule::Run { .. }
                | Rule::SameRankKongs
                | Rule::Patterns(_) => 1,
            },
            Rule::Straight(suits) => {
                let suits = ctx.set(*suits);
                match self.known {
                    // The chows of 123, 456 and 789 the groups lack are free melds to
                    // come, each kind of them with a copy left.
                    Known::Groups { free_melds, room, .. } => (0..3).any(|s| {
                        let have = f.chows >> (9 * s) & 0b1001001;
                        let lacking = (0..3).filter(|c| have >> (3 * c) & 1 == 0);
                        let kinds = lacking.clone().fold(0u64, |m, c| m | 0b111 << (9 * s + 3 * c));
                        suits >> s & 1 == 1 && lacking.count() as u32 <= free_melds && room & kinds == kinds
                    }) as u32,
                    Known::Form { form, straights, chows, .. } => {
                        (form & 1 != 0 && chows != Some(false) && suits & straights as u64 != 0) as u32
                    }
                }
            }
            // The pungs of the run the groups lack are free melds to come, each of a
            // kind with a copy left.
            Rule::Run { kongs: false, len } => match self.known {
                Known::Groups { free_melds, room, .. } => (0..3).any(|s| {
                    (0..=9usize.saturating_sub(*len as usize)).any(|start| {
                        let run = ((1u64 << *len) - 1) << (9 * s + start);
                        let lacking = run & !f.triplets;
                        lacking.count_ones() <= free_melds && room & lacking == lacking
                    })
                }) as u32,
                Known::Form { .. } => 1,
            },
            Rule::Triplets(_) => match free {
                Some((free_melds, _)) => ctx.eval(rule) + free_melds,
                None => self.melds,
            },
            Rule::Pairs(_) => match free {
                Some((_, free_pairs)) => ctx.eval(rule) + free_pairs,
                None => 8,
            },
            // Groups to come may add kinds, never take them away.
            Rule::AllTiles(set) if free.is_some() => (f.kinds & !ctx.set(*set) == 0) as u32,
            Rule::AnyTile(_) if free == Some((0, 0)) => ctx.eval(rule),
            Rule::AllTiles(_) | Rule::AnyTile(_) => 1,
            // The situation or the declared melds decide these (judged exactly above);
            // other patterns are bounded by `decided`.
            Rule::Always
            | Rule::Flag(_)
            | Rule::OnlyWait(_)
            | Rule::Run { kongs: true, .. }
            | Rule::SameRankKongs
            | Rule::Patterns(_) => 1,
        }
    }

    /// Whether the winning tile holds one of `roles` (bits by [`role_bit`]) as a kind of
    /// `kinds` in some of its places and in every one, where the places are known: those
    /// of the groups, and for a wild winning tile those of the free groups to come, of any
    /// kind (a pair's single wait, any role in a meld).
    fn win_places(&self, roles: u8, kinds: u64) -> Option<(bool, bool)> {
        let places = self.places?;
        let Some((_, wild)) = self.ctx.situation.win else {
            return Some((false, false));
        };
        let mut some = false;
        let mut every = true;
        for p in places {
            let fits = roles >> role_bit(p.role) & 1 == 1 && kinds >> p.kind & 1 == 1;
            some |= fits;
            every &= fits;
        }
        if let (Known::Groups { free_melds, free_pairs, .. }, true) = (self.known, wild) {
            let single = 1u8 << role_bit(Role::Single);
            let free_roles = if free_pairs > 0 { single } else { 0 } | if free_melds > 0 { !single } else { 0 };
            if free_roles != 0 {
                let all_kinds = kinds & ALL_KINDS == ALL_KINDS;
                some |= roles & free_roles != 0 && kinds & ALL_KINDS != 0;
                every &= free_roles & !roles == 0 && all_kinds;
            }
        }
        Some((some, every))
    }

    /// Whether a rule on other patterns surely holds or surely fails, when that is known.
    pub fn decided(&self, rule: &Rule) -> Option<bool> {
        match rule {
            Rule::Patterns(mask) => self.patterns_decided(*mask),
            Rule::Not(r) => self.decided(r).map(|b| !b),
            // Any holds if one surely does, fails if all surely fail; All the other way.
            Rule::Any(rules) | Rule::All(rules) => {
                let any = matches!(rule, Rule::Any(_));
                let mut all_decided = true;
                for r in rules {
                    match self.decided(r) {
                        Some(b) if b == any => return Some(any),
                        Some(_) => {}
                        None => all_decided = false,
                    }
                }
                all_decided.then_some(!any)
            }
            // Rules not on other patterns are bounded by `most`.
            Rule::Always
            | Rule::Flag(_)
            | Rule::Form(_)
            | Rule::Is(..)
            | Rule::Count(_)
            | Rule::Compare(..)
            | Rule::Triplets(_)
            | Rule::Pairs(_)
            | Rule::AllTiles(_)
            | Rule::AnyTile(_)
            | Rule::Straight(_)
            | Rule::Win { .. }
            | Rule::OnlyWait(_)
            | Rule::Run { .. }
            | Rule::SameRankKongs => None,
        }
    }

    /// Whether some pattern of `mask` surely counts, or none surely does, when that is
    /// known.
    fn patterns_decided(&self, mask: u64) -> Option<bool> {
        if self.sure & mask != 0 {
            Some(true)
        } else if self.possible & mask == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The least and most a quantity can be, for the quantities bounded here.
    fn range(&self, q: Quantity) -> Option<(i32, i32)> {
        use Quantity as Q;
        let f = self.ctx.facts;
        // A count of the groups', to which each free meld to come may add one.
        let grown = |known: u8| match self.known {
            Known::Groups { free_melds, .. } => Some((known as i32, (known as u32 + free_melds) as i32)),
            Known::Form { .. } => None,
        };
        // The suits held (bit 3 the honours), and whether more may come.
        let (held, more) = match self.known {
            Known::Form { suits, wilds, .. } => (suits, wilds > 0),
            Known::Groups { free_melds, free_pairs, .. } => (f.suits, free_melds + free_pairs > 0),
        };
        match q {
            Q::Chows => match self.known {
                Known::Form { chows: Some(chows), .. } => Some(if chows { (1, self.melds as i32) } else { (0, 0) }),
                Known::Form { chows: None, .. } => None,
                Known::Groups { .. } => grown(f.n_chows),
            },
            Q::Triplets => grown(f.n_triplets),
            // Free melds may each repeat the most repeated chow.
            Q::SameChows => grown(f.same_chows),
            // A pung the winning tile completes on a discard is not concealed.
            Q::ConcealedTriplets => match self.known {
                Known::Groups { free_melds, .. } => {
                    let known = f.concealed_triplets as i32;
                    Some(((known - 1).max(0), known + free_melds as i32))
                }
                Known::Form { .. } => None,
            },
            Q::Suits => {
                let lo = (held & 0b111).count_ones() as i32;
                Some((lo, if more { 3 } else { lo }))
            }
            Q::Honours => {
                let lo = (held >> 3 & 1) as i32;
                Some((lo, if more { 1 } else { lo }))
            }
            // Not bounded here: any value is possible.
            Q::Kongs
            | Q::Pairs
            | Q::DoubledPairs
            | Q::Declared
            | Q::Exposed
            | Q::FreeMelds
            | Q::FreePairs
            | Q::DragonSets
            | Q::WildTiles
            | Q::ExtraWilds
            | Q::Wilds
            | Q::WildKinds
            | Q::WildsUsed
            | Q::HomeWilds
            | Q::SeatFlowerUsed
            | Q::RealWildsUsed
            | Q::SeatFlower
            | Q::GuestFlowers
            | Q::Flowers
            | Q::AllFlowers
            | Q::FlowerWilds
            | Q::Fours
            | Q::Seat
            | Q::SeatGiven
            | Q::Won
            | Q::Discarder
            | Q::Total
            | Q::Value
            | Q::FanCount => None,
        }
    }
}

/// The roles (bits by [`role_bit`]) a real winning tile of kind `t` may have in a chow
/// (see [`Role::of`]) with the concealed kinds `held` and `wilds` wilds for the other
/// two tiles; a pair, pung or 中发白 set any kind may complete.
fn roles_of(t: Tile, held: u64, wilds: u8) -> u8 {
    let mut roles = 1 << role_bit(Role::Single) | 1 << role_bit(Role::Pung) | 1 << role_bit(Role::Set);
    if t >= 27 {
        return roles;
    }
    let rank = t % 9;
    // The chow starting at `start` (a rank) with the winning tile in it.
    let fits = |start: u8| {
        let others = (0..3).map(|i| t - rank + start + i).filter(|&k| k != t);
        others.filter(|&k| held >> k & 1 == 0).count() <= wilds as usize
    };
    for start in rank.saturating_sub(2)..=rank.min(6) {
        if fits(start) {
            let g = Group::new(Shape::Chow, t - rank + start, 0);
            roles |= 1 << role_bit(Role::of(&g, (rank - start) as usize));
        }
    }
    roles
}

/// The bit of a role in [`Rule::Win`]'s mask.
pub fn role_bit(r: Role) -> u8 {
    Role::ALL.iter().position(|&x| x == r).unwrap_or(0) as u8
}

impl Rule {
    /// What the rule reads (see [`Reads`]): what each of its parts reads itself, at every
    /// depth.
    pub fn reads(&self) -> Reads {
        self.fold(&Rule::own_reads, &Reads::with)
    }

    /// The kinds of facts the rule reads ([`Reads::facts`]), the other fields of the
    /// `Reads` left empty: the same walk, for the search's bounds, which ask nothing else
    /// of a rule's parts (and are in the hot path: this carries 16 bits, not all).
    #[inline]
    pub fn facts_read(&self) -> Reads {
        Reads::of(self.fold(&|r: &Rule| r.own_reads().facts, &|a, b| a | b))
    }

    /// `own` of the rule and of each of its parts at every depth, combined by `with`.
    fn fold<T>(&self, own: &impl Fn(&Rule) -> T, with: &impl Fn(T, T) -> T) -> T {
        let here = own(self);
        match self {
            Rule::Not(r) | Rule::Compare(r, _, _) => with(here, r.fold(own, with)),
            Rule::All(v) | Rule::Any(v) => v.iter().fold(here, |m, r| with(m, r.fold(own, with))),
            Rule::Always
            | Rule::Flag(_)
            | Rule::Form(_)
            | Rule::Is(..)
            | Rule::Count(_)
            | Rule::Triplets(_)
            | Rule::Pairs(_)
            | Rule::AllTiles(_)
            | Rule::AnyTile(_)
            | Rule::Straight(_)
            | Rule::Win { .. }
            | Rule::OnlyWait(_)
            | Rule::Run { .. }
            | Rule::SameRankKongs
            | Rule::Patterns(_) => here,
        }
    }

    /// What the rule reads itself, its parts aside: every kind of rule is classified
    /// here, by a match with no catch-all arm.
    #[inline(always)]
    fn own_reads(&self) -> Reads {
        let of = Reads::of;
        match self {
            // A combination reads what its parts do (see `fold`).
            Rule::Always | Rule::Not(_) | Rule::Compare(..) | Rule::All(_) | Rule::Any(_) => Reads::default(),
            Rule::Flag(_) => of(Reads::SITUATION),
            Rule::Form(_) => of(Reads::FORM),
            Rule::Is(q, _, _) | Rule::Count(q) => Reads { quantities: q.bit(), ..of(q.reads()) },
            Rule::Triplets(s) => of(Reads::GROUPS).set_for(*s, 0b001),
            Rule::Pairs(s) => of(Reads::GROUPS).set_for(*s, 0b100),
            Rule::AllTiles(s) | Rule::AnyTile(s) => of(Reads::GROUPS).set_for(*s, 0b111),
            Rule::Straight(s) => {
                let mut r = of(Reads::GROUPS);
                r.suit_sets |= r.set_bit(*s);
                r
            }
            Rule::Win { roles, kinds } => {
                let has = |r: Role| roles >> role_bit(r) & 1 == 1;
                let chows = has(Role::Closed) || has(Role::Edge) || has(Role::Open);
                let uses = has(Role::Pung) as u8 | (chows as u8) << 1 | (has(Role::Single) as u8) << 2;
                Reads { chow_ends: has(Role::Edge) || has(Role::Open), ..of(Reads::PLACEMENT) }.set_for(*kinds, uses)
            }
            Rule::OnlyWait(s) => of(Reads::WAITS).set(*s),
            Rule::Run { kongs, .. } => {
                Reads { pung_ranks: true, ..of(if *kongs { Reads::DECLARED } else { Reads::GROUPS }) }
            }
            Rule::SameRankKongs => Reads { pung_ranks: true, ..of(Reads::DECLARED) },
            Rule::Patterns(mask) => Reads { patterns: *mask, ..of(Reads::PATTERNS) },
        }
    }

    /// Whether the rule reads the situation alone (see [`Reads::of_situation`]).
    pub fn of_situation(&self) -> bool {
        self.reads().of_situation()
    }

    /// Whether the rule reads the waits of the hand.
    pub fn reads_waits(&self) -> bool {
        self.reads().waits()
    }
}

/// What a rule reads, worked out by one walk over it ([`Rule::reads`]): the kinds of
/// facts its count depends on, the quantities it compares or counts, the kind sets it
/// names (and the groups each tells apart), the suit sets of its straights and the
/// patterns it names. Every question the search asks of a rule's shape (is it judged once
/// a situation, known from the declared melds, judged after scoring ...) is asked of
/// this, so that a new kind of rule is classified in one place, [`Rule::reads`], whose
/// match has no catch-all arm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reads {
    /// The kinds of facts read, by the bits [`Reads::SITUATION`] ... [`Reads::TOTALS`].
    pub facts: u16,
    /// Runs of pungs or kongs: kinds told apart by rank beyond the sets named.
    pub pung_ranks: bool,
    /// A chow's ends: the edge or open roles of the winning tile.
    pub chow_ends: bool,
    /// The quantities compared or counted, by [`Quantity::bit`].
    pub quantities: u64,
    /// The kind sets named, by index; of them, those that tell apart pungs, chows and
    /// pairs (a set of winning-tile kinds tells apart the groups its roles fall in).
    pub sets: u64,
    pub uses: [u64; 3],
    /// The sets of suits straights are of, by index.
    pub suit_sets: u64,
    /// The patterns named, by index.
    pub patterns: u64,
    /// A set of index 64 or more is named (it has no bit above; no ruleset has that
    /// many).
    pub far_set: bool,
}

impl Reads {
    /// The situation's flags and quantities (the same in every arrangement).
    pub const SITUATION: u16 = 1;
    /// The waits of the hand.
    pub const WAITS: u16 = 1 << 1;
    /// The arrangement's form.
    pub const FORM: u16 = 1 << 2;
    /// The declared melds (kongs are declared).
    pub const DECLARED: u16 = 1 << 3;
    /// The wilds a complete hand is scored with: all the situation's.
    pub const USED_WILDS: u16 = 1 << 4;
    /// The arrangement's groups.
    pub const GROUPS: u16 = 1 << 5;
    /// Where the winning tile sits.
    pub const PLACEMENT: u16 = 1 << 6;
    /// Other patterns counted.
    pub const PATTERNS: u16 = 1 << 7;
    /// The total, the sum of values or the number of patterns counted.
    pub const TOTALS: u16 = 1 << 8;

    fn of(facts: u16) -> Reads {
        Reads { facts, ..Reads::default() }
    }

    /// Set `i` named.
    fn set(mut self, i: u8) -> Reads {
        self.sets |= self.set_bit(i);
        self
    }

    /// Set `i` named as telling apart the groups of `uses` (bit 0 pungs, 1 chows, 2 pairs).
    pub fn set_for(mut self, i: u8, uses: u8) -> Reads {
        let b = self.set_bit(i);
        for (g, mask) in self.uses.iter_mut().enumerate() {
            if uses >> g & 1 == 1 {
                *mask |= b;
            }
        }
        self.set(i)
    }

    /// The bit of set `i`.
    fn set_bit(&mut self, i: u8) -> u64 {
        self.far_set |= i >= 64;
        1u64.checked_shl(i as u32).unwrap_or(0)
    }

    /// What either reads.
    pub fn with(self, o: Reads) -> Reads {
        let u = |i: usize| self.uses[i] | o.uses[i];
        Reads {
            facts: self.facts | o.facts,
            pung_ranks: self.pung_ranks | o.pung_ranks,
            chow_ends: self.chow_ends | o.chow_ends,
            quantities: self.quantities | o.quantities,
            sets: self.sets | o.sets,
            uses: [u(0), u(1), u(2)],
            suit_sets: self.suit_sets | o.suit_sets,
            patterns: self.patterns | o.patterns,
            far_set: self.far_set | o.far_set,
        }
    }

    /// Whether it reads facts of the kinds of `kinds` alone.
    fn only(&self, kinds: u16) -> bool {
        self.facts & !kinds == 0
    }

    /// Whether it reads where the winning tile sits.
    pub fn placement(&self) -> bool {
        self.facts & Reads::PLACEMENT != 0
    }

    /// Whether it reads the waits of the hand.
    pub fn waits(&self) -> bool {
        self.facts & Reads::WAITS != 0
    }

    /// Whether it reads the situation alone: it has the same count for every arrangement,
    /// so it is judged once.
    pub fn of_situation(&self) -> bool {
        self.only(Reads::SITUATION | Reads::WAITS)
    }

    /// Whether it reads the patterns counted and the situation alone (no total).
    pub fn of_counted(&self) -> bool {
        self.only(Reads::SITUATION | Reads::WAITS | Reads::PATTERNS)
    }

    /// Whether its count is known once some groups of a complete hand are: it reads the
    /// situation (not the waits), the form, the declared melds and the wilds a complete
    /// hand is scored with alone.
    pub fn of_groups_known(&self) -> bool {
        self.only(Reads::SITUATION | Reads::FORM | Reads::DECLARED | Reads::USED_WILDS)
    }

    /// Whether it reads the situation (not the waits) and the declared melds alone: its
    /// count is known before any arrangement is.
    pub fn of_declared(&self) -> bool {
        self.only(Reads::SITUATION | Reads::DECLARED)
    }

    /// Whether it can be judged before the patterns are counted.
    pub fn before_scoring(&self) -> bool {
        self.facts & (Reads::PATTERNS | Reads::TOTALS) == 0
    }

    /// Whether it reads quantity `q`.
    pub fn quantity(&self, q: Quantity) -> bool {
        self.quantities & q.bit() != 0
    }
}

/// Kind masks of every suit, for the arrangement facts.
pub const SUIT_MASKS: [u64; 4] = [0x1FF, 0x1FF << 9, 0x1FF << 18, 0x7F << 27];

const _: () = assert!(KINDS == 34);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::arrange::Form;
    use crate::score::facts::facts;
    use crate::score::group::{Group, Placement, Shape};

    fn ctx_eval(groups: &[Group], win: Option<Placement>, rule: &Rule, sets: &[u64]) -> u32 {
        let f = facts(Form::Standard, groups, win, 0, false, true);
        let s = Situation::default();
        Context::new(&f, &s, sets, None).eval(rule)
    }

    /// A rule whose needs are not met counts 0, checked on every rule of flags and forms
    /// up to two levels deep, in every situation of four flags and in every form.
    #[test]
    fn rules_whose_needs_fail_count_nothing() {
        let leaves = [
            Rule::Flag(0),
            Rule::Flag(1),
            Rule::Not(Box::new(Rule::Flag(2))),
            Rule::Form(0b11),
            Rule::Not(Box::new(Rule::Form(0b10))),
            Rule::Is(Quantity::Seat, Cmp::Eq, 0),
            Rule::Always,
        ];
        let mut rules: Vec<Rule> = leaves.to_vec();
        for a in &leaves {
            for b in &leaves {
                rules.push(Rule::All(vec![a.clone(), b.clone()]));
                rules.push(Rule::Any(vec![a.clone(), b.clone()]));
                rules.push(Rule::Not(Box::new(Rule::Any(vec![a.clone(), b.clone()]))));
            }
        }
        for r in [rules.clone(), rules.iter().cloned().map(|r| Rule::All(vec![r, Rule::Flag(3)])).collect()].concat() {
            let needs = Conditions::of(&r).needs;
            for flags in 0..16u32 {
                for form in [0, 1, 2, 4, 8, 1 << 6] {
                    let f = Facts { form, ..Facts::default() };
                    let s = Situation { flags, ..Situation::default() };
                    let ctx = Context::new(&f, &s, &[], None);
                    if !needs.met(flags, form) {
                        assert_eq!(ctx.eval(&r), 0, "{r:?} with flags {flags:b} in form {form:b}");
                    }
                    if !needs.met_flags(flags) {
                        assert_eq!(ctx.eval(&r), 0, "{r:?} with flags {flags:b}");
                    }
                }
            }
        }
        // And the tests do refuse: a flag's rule needs its flag.
        assert!(!Conditions::of(&Rule::All(vec![Rule::Flag(1), Rule::Form(1)])).needs.met(0b10, 2));
        assert!(!Conditions::of(&Rule::Flag(1)).needs.met_flags(0));
    }

    /// A rule missing from the `Admits` row of a quantity's value counts 0 there: checked
    /// for rules of every comparison of the quantities (negated, counted, a count of some
    /// kinds' pungs or pairs compared) alone, two together and either of two, on random
    /// arrangements and situations.
    #[test]
    fn rules_admits_rule_out_count_nothing() {
        let ops = [Cmp::Eq, Cmp::Ne, Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge];
        let mut leaves = vec![];
        for (_, q) in Quantity::NAMES.iter().filter(|(_, q)| !q.after_scoring()) {
            leaves.push(Rule::Count(*q));
            for op in ops {
                for v in [0, 1, 2, 5, 15, 16] {
                    leaves.push(Rule::Is(*q, op, v));
                    leaves.push(Rule::Not(Box::new(Rule::Is(*q, op, v))));
                    leaves.push(Rule::Compare(Box::new(Rule::Count(*q)), op, v));
                }
            }
        }
        for op in ops {
            for v in [0, 1, 2, 3, 4] {
                leaves.push(Rule::Compare(Box::new(Rule::Triplets(0)), op, v));
                leaves.push(Rule::Compare(Box::new(Rule::Pairs(0)), op, v));
            }
        }
        leaves.extend([Rule::Triplets(0), Rule::Pairs(0), Rule::Always]);
        let mut rng = crate::game::rng::Rng::new(7);
        let mut next = |n: u64| rng.below(n as u32) as u64;
        let mut rules = leaves.clone();
        for _ in 0..2000 {
            let (a, b) = (next(leaves.len() as u64) as usize, next(leaves.len() as u64) as usize);
            rules.push(Rule::All(vec![leaves[a].clone(), leaves[b].clone()]));
            // Either of two: of one quantity half the time, where a table can rule it out.
            let b = if next(2) == 0 { b } else { (a + 1 + next(30) as usize).min(leaves.len() - 1) };
            rules.push(Rule::Any(vec![leaves[a].clone(), leaves[b].clone()]));
        }
        let shapes = [Shape::Pair, Shape::Pung, Shape::Kong, Shape::Chow];
        let mut ruled_out = 0;
        for chunk in rules.chunks(64) {
            let all = || chunk.iter();
            let conditions: Vec<Conditions> = all().map(Conditions::of).collect();
            let admits = Admits::of(conditions.iter(), |_| true, usize::MAX);
            for _ in 0..300 {
                let groups: Vec<Group> = (0..next(8))
                    .map(|_| {
                        let shape = shapes[next(4) as usize];
                        let tile = if shape == Shape::Chow { next(3) * 9 + next(7) } else { next(KINDS as u64) };
                        Group::new(shape, tile as Tile, next(4) as u8 * (next(3) == 0) as u8)
                    })
                    .collect();
                let f = facts(Form::Standard, &groups, None, 1 << next(KINDS as u64), next(2) == 1, true);
                let s = Situation {
                    seat: next(4) as u8,
                    wild_tiles: next(6) as u8,
                    extra_wilds: next(3) as u8,
                    flowers: next(256) as u8,
                    seat_flower: next(2) == 1,
                    guest_flowers: next(5) as u8,
                    discarder: Some(next(4) as u8).filter(|_| next(2) == 0),
                    ..Situation::default()
                };
                let sets = [next(1 << 17) << 17 | next(1 << 17)];
                let ctx = Context::new(&f, &s, &sets, None);
                let may = admits.admitted(&ctx);
                for (i, r) in all().enumerate() {
                    if may >> i & 1 == 0 {
                        ruled_out += 1;
                        assert_eq!(ctx.eval(r), 0, "{r:?} ruled out in {f:?} {s:?}");
                    }
                }
            }
        }
        // And the tables do rule out.
        assert!(ruled_out > 10_000, "{ruled_out}");
    }

    #[test]
    fn straights_runs_and_counts() {
        let straight = [
            Group::new(Shape::Chow, 9, 0),
            Group::new(Shape::Chow, 12, 0),
            Group::new(Shape::Chow, 15, 0),
            Group::new(Shape::Pung, 27, 0),
            Group::new(Shape::Pair, 33, 0),
        ];
        assert_eq!(ctx_eval(&straight, None, &Rule::Straight(0), &[0b0010]), 1);
        assert_eq!(ctx_eval(&straight, None, &Rule::Straight(0), &[0b0001]), 0);
        let honours = 0x7Fu64 << 27;
        assert_eq!(ctx_eval(&straight, None, &Rule::Triplets(0), &[honours]), 1);
        assert_eq!(ctx_eval(&straight, None, &Rule::AllTiles(0), &[honours]), 0);
        let pungs = [
            Group::new(Shape::Pung, 2, 0),
            Group::new(Shape::Pung, 3, 0),
            Group::new(Shape::Pung, 4, 0),
            Group::new(Shape::Pung, 6, 0),
        ];
        assert_eq!(ctx_eval(&pungs, None, &Rule::Run { kongs: false, len: 3 }, &[]), 1);
        assert_eq!(ctx_eval(&pungs, None, &Rule::Run { kongs: false, len: 4 }, &[]), 0);
        let all = Rule::All(vec![Rule::Count(Quantity::Triplets), Rule::Is(Quantity::Chows, Cmp::Eq, 0)]);
        assert_eq!(ctx_eval(&pungs, None, &all, &[]), 4);
        let reversed = Rule::All(vec![Rule::Is(Quantity::Chows, Cmp::Eq, 0), Rule::Count(Quantity::Triplets)]);
        assert_eq!(ctx_eval(&pungs, None, &reversed, &[]), 4);
    }

    #[test]
    fn the_roles_a_real_winning_tile_may_have() {
        let chow_roles = |t: Tile, held: &[Tile], wilds: u8| {
            let mask = held.iter().fold(0u64, |m, &k| m | 1 << k);
            let r = roles_of(t, mask, wilds);
            [Role::Closed, Role::Edge, Role::Open]
                .into_iter()
                .filter(|&x| r >> role_bit(x) & 1 == 1)
                .collect::<Vec<_>>()
        };
        // A 9 is never the middle of a chow, nor the 3 or 7 of an edge wait.
        assert_eq!(chow_roles(8, &[], 2), [Role::Open]);
        // The 3 of 123 with 1 and 2 held is an edge wait, and nothing else without wilds.
        assert_eq!(chow_roles(2, &[0, 1], 0), [Role::Edge]);
        assert_eq!(chow_roles(4, &[3, 5], 0), [Role::Closed]);
        // A chow's two other tiles need two wilds where neither is held.
        assert_eq!(chow_roles(4, &[], 1), []);
        assert_eq!(chow_roles(4, &[], 2), [Role::Closed, Role::Open]);
        // Honours complete pairs, pungs and sets alone.
        assert_eq!(chow_roles(27, &[28, 29], 2), []);
        assert_eq!(roles_of(27, 0, 0) >> role_bit(Role::Pung) & 1, 1);
    }

    #[test]
    fn an_arrangements_bound_reads_its_groups_and_free_places() {
        // Three wind pungs known, one free meld and one free pair to come; a wild winning
        // tile with no wild in the known groups.
        let winds = 0b1111u64 << 27;
        let groups = [Group::new(Shape::Pung, 27, 0), Group::new(Shape::Pung, 28, 0), Group::new(Shape::Pung, 29, 0)];
        let f = facts(Form::Standard, &groups, None, 0, false, true);
        let s = Situation { win: Some((5, true)), ..Situation::default() };
        let sets = [winds, ALL_KINDS];
        let ctx = Context::new(&f, &s, &sets, None);
        let most = |free_melds, free_pairs, rule: &Rule| {
            Bound::new(ctx, Known::Groups { free_melds, free_pairs, room: ALL_KINDS }, 4, Some(&[])).most(rule)
        };
        // A compared count lies between the groups' and the most free groups add.
        let four = Rule::Compare(Box::new(Rule::Triplets(0)), Cmp::Ge, 4);
        let three = Rule::Compare(Box::new(Rule::Triplets(0)), Cmp::Eq, 3);
        let two = Rule::Compare(Box::new(Rule::Triplets(0)), Cmp::Le, 2);
        assert_eq!((most(1, 0, &four), most(0, 1, &four)), (1, 0));
        assert_eq!((most(1, 0, &three), most(1, 0, &two)), (1, 0));
        // The winning tile sits in a free group: a pair's single wait, any role of a meld.
        let single = Rule::Win { roles: 1 << role_bit(Role::Single), kinds: 1 };
        let closed = Rule::Win { roles: 1 << role_bit(Role::Closed), kinds: 1 };
        let not_single = Rule::Not(Box::new(single.clone()));
        assert_eq!((most(0, 1, &single), most(0, 1, &closed), most(0, 1, &not_single)), (1, 0, 0));
        assert_eq!((most(1, 0, &single), most(1, 0, &closed), most(1, 0, &not_single)), (0, 1, 1));
        // A role of some kinds only is not sure in a free group of any kind.
        let single_wind = Rule::Not(Box::new(Rule::Win { roles: 1 << role_bit(Role::Single), kinds: 0 }));
        assert_eq!(most(0, 1, &single_wind), 1);
    }

    #[test]
    fn bounds_of_a_straight_and_a_wait_read_what_the_tiles_allow() {
        // 456s known, two free melds to come: the straight of bamboo needs 123s and 789s.
        let groups = [Group::new(Shape::Chow, 21, 0)];
        let f = facts(Form::Standard, &groups, None, 0, false, true);
        let s = Situation { win: Some((4, false)), ..Situation::default() };
        let sets = [0b111u64, ALL_KINDS];
        let ctx = Context::new(&f, &s, &sets, None);
        let straight = Rule::Straight(0);
        let most = |room: u64| Bound::new(ctx, Known::Groups { free_melds: 2, free_pairs: 0, room }, 4, None);
        assert_eq!(most(ALL_KINDS).most(&straight), 1);
        // No copy of 1s left (a kong holds them): no 123s.
        assert_eq!(most(ALL_KINDS & !(1 << 18)).most(&straight), 0);
        // 5m between 4m and 6m held: a closed wait in the standard form, none in seven pairs.
        let closed = Rule::Win { roles: 1 << role_bit(Role::Closed), kinds: 1 };
        let held = 1 << 3 | 1 << 5;
        let known = |form: Form| Known::Form { form: form.bit(), held, straights: 0, suits: 1, wilds: 0, chows: None };
        assert_eq!(Bound::new(ctx, known(Form::Standard), 4, None).most(&closed), 1);
        assert_eq!(Bound::new(ctx, known(Form::SevenPairs), 4, None).most(&closed), 0);
    }

    #[test]
    fn rules_that_never_count_together() {
        let never = |a: &Rule, b: &Rule| Conditions::of(a).never_with(&Conditions::of(b));
        let is = |q, op, v| Rule::Is(q, op, v);
        let one_suit = Rule::All(vec![is(Quantity::Suits, Cmp::Eq, 1), is(Quantity::Honours, Cmp::Eq, 0)]);
        let half = Rule::All(vec![is(Quantity::Suits, Cmp::Eq, 1), is(Quantity::Honours, Cmp::Eq, 1)]);
        let luxury = Rule::All(vec![Rule::Form(2), is(Quantity::DoubledPairs, Cmp::Eq, 1)]);
        let super_luxury = Rule::All(vec![Rule::Form(2), is(Quantity::DoubledPairs, Cmp::Ge, 2)]);
        assert!(never(&one_suit, &half) && never(&half, &one_suit));
        assert!(never(&luxury, &super_luxury));
        // A flag set and clear; forms apart.
        assert!(never(&Rule::Flag(3), &Rule::Not(Box::new(Rule::Flag(3)))));
        assert!(never(&Rule::Form(1), &luxury));
        // Ranges that meet, other quantities, rules not in a conjunction: may count together.
        assert!(!never(&is(Quantity::Triplets, Cmp::Ge, 3), &is(Quantity::Triplets, Cmp::Le, 3)));
        assert!(!never(&one_suit, &is(Quantity::Suits, Cmp::Ge, 1)));
        assert!(!never(&luxury, &is(Quantity::Triplets, Cmp::Eq, 0)));
        let either = Rule::Any(vec![is(Quantity::Honours, Cmp::Eq, 0), Rule::Flag(1)]);
        assert!(!never(&either, &half));
        // A count needs one at least; a negated comparison holds where its contrary does;
        // either of two comparisons of one quantity holds at the values of both.
        assert!(never(&Rule::Count(Quantity::Kongs), &is(Quantity::Kongs, Cmp::Eq, 0)));
        assert!(never(&Rule::Not(Box::new(is(Quantity::Honours, Cmp::Eq, 1))), &half));
        let two_or_three =
            Rule::Any(vec![is(Quantity::RealWildsUsed, Cmp::Eq, 2), is(Quantity::RealWildsUsed, Cmp::Eq, 3)]);
        assert_eq!(Conditions::of(&two_or_three).values, [(Quantity::RealWildsUsed, 0b1100)]);
        assert!(never(&two_or_three, &is(Quantity::RealWildsUsed, Cmp::Le, 1)));
        assert!(!never(&two_or_three, &is(Quantity::RealWildsUsed, Cmp::Ge, 3)));
    }

    #[test]
    fn the_winning_tiles_role() {
        let g = [Group::new(Shape::Chow, 3, 0)];
        let p = Placement { group: 0, role: Role::Closed, kind: 4 };
        let rule = Rule::Win { roles: 1 << role_bit(Role::Closed), kinds: 0 };
        assert_eq!(ctx_eval(&g, Some(p), &rule, &[1 << 4]), 1);
        assert_eq!(ctx_eval(&g, Some(p), &rule, &[1 << 5]), 0);
    }
}
