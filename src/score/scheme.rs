//! A ruleset's scoring as data: its forms, situation keys, patterns, point tables, total
//! and rank. Each regional ruleset's Python module writes one; it is checked here once,
//! and what the search needs to know about it (does any rule read where the winning
//! tile sits, or the waits) is worked out then.

use std::sync::Arc;

use super::group::Shape;
use super::rule::{Admits, Conditions, KindSet, Needs, Quantity, Reads, Rule};
use crate::engine::Engine;
use crate::error::{HandError, Result};
use crate::forms::Forms;
use crate::tiles::{self, KINDS};

/// Most patterns a ruleset has (their set is a `u64`).
pub const MAX_PATTERNS: usize = 64;

/// The most quantities whose values rule patterns out before their rules are walked (see
/// [`Admits`]), of an arrangement and of the situation each: a lookup each, made for every
/// arrangement scored.
const ADMITS_MOST: usize = 8;

/// Most flags a situation has.
pub const MAX_FLAGS: usize = 32;
/// Most kind sets a ruleset's rules name.
pub const MAX_SETS: usize = 40;

/// One pattern (番, 台, 大胡 ...).
#[derive(Clone, Debug)]
pub struct Pattern {
    pub id: String,
    /// Its value for each time it counts.
    pub value: i32,
    /// Its value for a player who did not win, if it counts for one.
    pub loser_value: Option<i32>,
    pub rule: Rule,
    /// The patterns it makes void, by bit.
    pub excludes: u64,
    /// A limit hand (腊子): the total is the cap.
    pub lazi: bool,
    /// After it the other players count nothing (天胡, 三财神 in Longgang).
    pub instant: bool,
    /// A grouping of the ruleset's own (Changsha's 小胡, 大胡, dealt-hand wins).
    pub class: u8,
}

/// How patterns void each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exclusion {
    /// Every pattern found voids those it excludes, even one itself voided.
    EveryHit,
    /// In table order: a pattern voided voids nothing.
    TopDown,
}

/// Which groups a row of a point table scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupState {
    /// 暗杠.
    ConcealedKong,
    /// 明杠 and 补杠.
    ExposedKong,
    /// A declared pung, or one completed on another player's discard.
    ExposedPung,
    /// A pung held concealed.
    ConcealedPung,
    Pair,
}

/// How many [`GroupState`]s there are.
const GROUP_STATES: usize = 5;

/// A row of a point table (Longgang's 胡数): points for a group.
#[derive(Clone, Debug)]
pub struct GroupPoints {
    pub name: String,
    pub state: GroupState,
    /// The kinds it applies to (a set index).
    pub kinds: u8,
    /// Points for a 小子 (2-8) and a 大子 (terminal or honour).
    pub small: i32,
    pub big: i32,
    pub winners: bool,
    pub losers: bool,
}

/// Points that do not belong to a group (自摸, 卡档, flowers): `points` for each count of
/// the rule. `{n}` in the name stands for the count.
#[derive(Clone, Debug)]
pub struct ExtraPoints {
    pub name: String,
    pub rule: Rule,
    pub points: i32,
    pub winners: bool,
    pub losers: bool,
}

/// How the total is worked out from the patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Total {
    /// The sum of the patterns' values (MCR points, 番).
    Sum,
    /// A fixed amount for any win (what each player pays in a table without multiples).
    Fixed(i32),
    /// (face points + base) x 2^value for a winner, face x 2^value for another player,
    /// rounded up to `step`, at most `cap`; `cap` for a limit hand (Longgang).
    HuTai { base: i32, cap: i32, step: i32 },
}

impl Total {
    pub fn of(self, value: i32, face: i32, lazi: bool, winner: bool) -> i32 {
        match self {
            Total::Sum => value,
            Total::Fixed(n) => n,
            Total::HuTai { base, cap, step } => {
                if lazi {
                    return cap;
                }
                let hu = (face as i64 + if winner { base as i64 } else { 0 }) * (1i64 << value.clamp(0, 30));
                let step = step.max(1) as i64;
                (((hu + step - 1) / step) * step).clamp(i32::MIN as i64, cap as i64) as i32
            }
        }
    }
}

/// What the best arrangement is chosen by, most important first; ties keep the first
/// found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankKey {
    Total,
    Value,
    Face,
    FanCount,
}

/// A win granted whatever the shape (四惠牌, 三财神), when no arrangement is complete.
#[derive(Clone, Debug)]
pub struct Fallback {
    pub name: String,
    /// Judged on the situation alone.
    pub rule: Rule,
    /// The patterns that may count for it, by bit.
    pub patterns: u64,
}

/// What `win` absent means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unwon {
    /// `win` is required.
    Refused,
    /// The hand is complete and its last tile is the winning one.
    LastTile,
    /// The player did not win: score the hand as it stands (Longgang's 陪家).
    Loser,
}

/// A rule and what to say when it holds (or fails).
#[derive(Clone, Debug)]
pub struct Said {
    pub rule: Rule,
    /// Shared, so that a result quotes it without copying.
    pub message: Arc<str>,
}

/// A ruleset's scoring as the ruleset declares it: what its data says, checked and
/// compiled into a [`Scheme`] by [`Spec::prepare`].
#[derive(Clone, Debug)]
pub struct Spec {
    pub name: String,
    /// Kinds played, and flowers in the set (bit f for flower f + 1).
    pub tiles: u64,
    pub flowers: u8,
    pub forms: Forms,
    /// 中发白 may stand as a concealed set (Tangshan).
    pub dragon_sets: bool,
    /// The kind sets rules name, by index.
    pub sets: Vec<KindSet>,
    /// Situation flags by bit.
    pub flags: Vec<String>,
    pub keys: Vec<super::situation::Key>,
    /// A flag that sets another unless that one is given false (杠上开花 is self-drawn):
    /// (flag, implied flag, what to say when it is given false).
    pub implies: Vec<(u8, u8, String)>,
    /// Situations refused: when the rule holds (judged on the situation and the declared
    /// melds alone).
    pub refuse: Vec<Said>,
    pub patterns: Vec<Pattern>,
    pub exclusion: Exclusion,
    /// An arrangement counts only where every rule holds; the message is the reason a
    /// hand none of whose arrangements count does not win.
    pub valid: Vec<Said>,
    /// The best arrangement does not win when the rule holds (after scoring).
    pub no_win: Vec<Said>,
    pub group_points: Vec<GroupPoints>,
    pub extra_points: Vec<ExtraPoints>,
    pub total: Total,
    pub rank: Vec<RankKey>,
    /// The search stops at an arrangement with at least this total and value: nothing
    /// it pays can be higher (Longgang's 300 with 3 台).
    pub stop: Option<(i32, i32)>,
    pub fallbacks: Vec<Fallback>,
    pub unwon: Unwon,
    /// The flag that judges a dealt hand instead (Changsha's 起手胡).
    pub dealt_flag: Option<u8>,
    /// The self-drawn flag (a wild or flower drawn wins self-drawn; a pung completed on a
    /// discard is exposed).
    pub self_drawn_flag: Option<u8>,
    /// Flowers: the seat flower plays as a wild (Longgang's 坐花); the wilds may be the
    /// flowers (花财神); each seat's flowers, by bit.
    pub seat_flower_wild: bool,
    pub flower_wilds: bool,
    pub seat_flowers: [u8; 4],
    /// Declared melds may hold copies of the wild kind: a claimed meld's are plain
    /// tiles, a concealed kong's are still wilds held (`Situation::wild_tiles`), though
    /// the kong plays as four of its kind.
    pub wild_kinds_in_melds: bool,
    /// A partial hand (a player who did not win) never scores less with a pung or pair
    /// more: only those no group can be added to are scored.
    pub maximal_partials: bool,
    /// Most wild kinds one deal has.
    pub max_wild_kinds: u8,
    /// Why a hand that is not complete does not win.
    pub incomplete: Arc<str>,
    /// What the ruleset calls its wilds (财神, 混, 惠牌), for messages.
    pub wild_name: String,
    /// Said after "tile ... is not played" (Longgang: "龙港麻将无白板").
    pub tiles_note: String,
    /// The name of the eight-pairs form in results.
    pub eight_pairs_name: String,
}

/// A ruleset's scoring, ready to score: its [`Spec`] (read through this, by `Deref`; it
/// cannot change once compiled) and what the search needs to know of it.
#[derive(Clone, Debug)]
pub struct Scheme {
    spec: Spec,
    /// The core's hand analysis for the ruleset's tiles and forms.
    pub engine: Engine,
    /// The search's tables and masks.
    pub(crate) plan: Plan,
}

impl std::ops::Deref for Scheme {
    type Target = Spec;

    fn deref(&self) -> &Spec {
        &self.spec
    }
}

impl Scheme {
    /// The kind sets in `situation`, by index: only the sets that read the situation are
    /// resolved for it.
    pub fn sets_of(&self, situation: &super::facts::Situation) -> [u64; MAX_SETS] {
        let mut sets = self.plan.fixed_sets;
        for i in tiles::bits(self.plan.situation_sets) {
            sets[i] = self.sets[i].resolve(situation);
        }
        sets
    }

    /// Points of a group, by the first row that applies.
    #[inline]
    pub fn group_points(
        &self,
        g: &super::group::Group,
        on_discard: bool,
        sets: &[u64],
        winner: bool,
    ) -> Option<(usize, i32)> {
        if g.is_free() {
            // "财神坐花对作将牌，不计将胡数": groups of wilds alone score no points.
            return None;
        }
        let state = match (g.shape, g.meld) {
            (Shape::Kong, Some(crate::hand::MeldKind::ConcealedKong)) => GroupState::ConcealedKong,
            (Shape::Kong, _) => GroupState::ExposedKong,
            (Shape::Pung, Some(_)) => GroupState::ExposedPung,
            (Shape::Pung, None) if on_discard => GroupState::ExposedPung,
            (Shape::Pung, None) => GroupState::ConcealedPung,
            (Shape::Pair, _) => GroupState::Pair,
            _ => return None,
        };
        // Only the rows of the group's state, for its player, are read.
        let rows = self.plan.group_rows[state as usize][winner as usize];
        tiles::bits(rows.into()).find_map(|i| {
            let row = &self.spec.group_points[i];
            let applies = sets.get(row.kinds as usize).is_some_and(|m| m >> g.tile & 1 == 1);
            applies.then(|| (i, if tiles::is_orphan(g.tile) { row.big } else { row.small }))
        })
    }
}

/// What the search needs to know of a scheme, worked out from its [`Spec`] once, when it
/// is compiled: masks of the patterns by what their rules read, tables that rule patterns
/// out before their rules are walked, the patterns that never count together, and the
/// kind sets that tell free groups apart.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    /// What each rule needs to count (see [`Conditions`]): of the patterns, of `valid`, of
    /// `no_win` and of `refuse`, in their order.
    pub pattern_needs: Vec<Needs>,
    pub valid_needs: Vec<Needs>,
    pub no_win_needs: Vec<Needs>,
    pub refuse_needs: Vec<Needs>,
    /// Some rule reads where the winning tile sits.
    pub placement_sensitive: bool,
    /// Some rule reads the waits.
    pub reads_waits: bool,
    /// Some rule tells pung kinds apart by rank (runs).
    pub pung_ranks: bool,
    /// The sets free groups' kinds are told apart by, for pungs, chows and pairs, and the
    /// suit sets of straights.
    pub class_sets: [Vec<u8>; 3],
    pub suit_sets: Vec<u8>,
    /// Some rule reads the suits held; which kinds are wild (财神归位); a chow's ends; how
    /// many chows are alike.
    pub reads_suits: bool,
    pub reads_home: bool,
    pub reads_chow_ends: bool,
    pub reads_same_chows: bool,
    /// Some rule reads the kinds four tiles stand for.
    pub reads_fours: bool,
    /// Patterns judged after the others (their rules name patterns or totals); of them,
    /// those whose rules read only the patterns counted and the situation (worked out
    /// exactly for each choice of patterns when bounding), and the patterns those read.
    pub late: u64,
    pub late_exact: u64,
    pub late_reads: u64,
    /// Patterns judged once per situation (their rules read the situation alone), and
    /// those judged for each place of the winning tile.
    pub situational: u64,
    pub placed: u64,
    /// Patterns whose count is known once some groups are (see `Reads::of_groups_known`).
    pub known_from_groups: u64,
    /// The patterns with a value, for a winner and for a player who did not win (by
    /// `loser as usize`); None where a value is negative (no bound is then worked out).
    pub valued: [Option<u64>; 2],
    /// For patterns judged per arrangement whose rule is a conjunction with parts that
    /// read the situation alone (not its waits): the pattern and those parts, judged once
    /// a situation. Where one fails the pattern cannot count in any arrangement.
    pub gates: Vec<(u8, Rule)>,
    /// The patterns that may count at each value of the quantities their rules compare
    /// (see [`Admits`]): of an arrangement, and of the situation alone.
    pub admits: Admits,
    pub situation_admits: Admits,
    /// For each pattern, the patterns (by bit) it never counts with: their rules ask
    /// for contrary things (see `Conditions::never_with`). The bounds do not add them up.
    pub disjoint: Vec<u64>,
    /// Rules of `valid` and extra points that read where the winning tile sits.
    pub valid_placed: u64,
    pub extra_placed: u64,
    /// The sets as they are in every situation (those that read none), and by bit the
    /// others, resolved for each situation.
    pub fixed_sets: [u64; MAX_SETS],
    pub situation_sets: u64,
    /// Patterns that count for a player who did not win (those with a loser's value).
    pub loser_patterns: u64,
    /// The classes of kinds for free groups that no situation changes (see
    /// `evaluate::fixed_classes`).
    pub fixed_classes: [[u64; KINDS]; 3],
    /// The most copies of each kind a hand may hold: 4, none of a kind not played.
    pub most_copies: [u8; KINDS],
    /// The rows of the point table (bits) of each group state, for a player who did not
    /// win (0) and for the winner (1).
    pub group_rows: [[u32; 2]; GROUP_STATES],
}

impl Spec {
    /// Checks the specification and compiles it: works out what the search needs to know
    /// of it.
    pub fn prepare(self) -> Result<Scheme> {
        let bad = |m: String| Err(HandError::invalid(format!("{}: {m}", self.name)));
        if self.patterns.len() > MAX_PATTERNS {
            return bad(format!("{} patterns; at most {MAX_PATTERNS}", self.patterns.len()));
        }
        if self.flags.len() > MAX_FLAGS {
            return bad(format!("{} flags; at most {MAX_FLAGS}", self.flags.len()));
        }
        if self.sets.len() > MAX_SETS {
            return bad(format!("{} kind sets; at most {MAX_SETS}", self.sets.len()));
        }
        if self.valid.len() > 64 || self.extra_points.len() > 64 {
            return bad("at most 64 rules of valid arrangements and 64 extra points".into());
        }
        if self.group_points.len() > 32 {
            return bad(format!("{} rows of group points; at most 32", self.group_points.len()));
        }
        if self.fallbacks.len() > 16 {
            return bad("at most 16 forms granted whatever the shape".into());
        }
        // A refusal is judged before any arrangement is known.
        if let Some(r) = self.refuse.iter().find(|r| !r.rule.reads().of_declared()) {
            return bad(format!(
                "refuse {:?}: its rule reads more than the situation and the declared melds",
                r.message
            ));
        }
        let patterns: Vec<Reads> = self.patterns.iter().map(|p| p.rule.reads()).collect();
        let valid: Vec<Reads> = self.valid.iter().map(|v| v.rule.reads()).collect();
        let extras: Vec<Reads> = self.extra_points.iter().map(|e| e.rule.reads()).collect();
        let others =
            self.no_win.iter().chain(&self.refuse).map(|s| &s.rule).chain(self.fallbacks.iter().map(|f| &f.rule));
        let read = others.map(Rule::reads).chain(patterns.iter().chain(&valid).chain(&extras).copied());
        let mut read = read.fold(Reads::default(), Reads::with);
        for g in &self.group_points {
            read =
                read.with(Reads::default().set_for(g.kinds, if g.state == GroupState::Pair { 0b100 } else { 0b001 }));
        }
        let n_sets = self.sets.len();
        if read.far_set || (read.sets | read.suit_sets) >> n_sets != 0 {
            return bad("a rule names a set that is not in the list".into());
        }
        for (p, r) in self.patterns.iter().zip(&patterns) {
            let beyond = r.patterns.checked_shr(self.patterns.len() as u32).unwrap_or(0);
            if beyond != 0 {
                let i = beyond.trailing_zeros() as usize + self.patterns.len();
                return bad(format!("pattern {} names pattern {i}, which does not exist", p.id));
            }
        }
        let mut plan = Plan::empty();
        plan.placement_sensitive =
            read.placement() || self.group_points.iter().any(|g| g.state == GroupState::ExposedPung);
        plan.reads_waits = read.waits();
        plan.pung_ranks = read.pung_ranks;
        let bits = |reads: &[Reads], pred: fn(&Reads) -> bool| {
            reads.iter().enumerate().filter(|(_, r)| pred(r)).fold(0u64, |m, (i, _)| m | 1 << i)
        };
        plan.late = bits(&patterns, |r| !r.before_scoring());
        plan.late_exact = bits(&patterns, |r| !r.before_scoring() && r.of_counted());
        plan.late_reads = patterns
            .iter()
            .enumerate()
            .filter(|&(i, _)| plan.late_exact >> i & 1 == 1)
            .fold(0u64, |m, (_, r)| m | r.patterns);
        plan.situational = bits(&patterns, |r| r.before_scoring() && r.of_situation());
        plan.placed = bits(&patterns, Reads::placement) & !plan.late;
        plan.known_from_groups = bits(&patterns, Reads::of_groups_known);
        plan.valued = [false, true].map(|loser| {
            let mut valued = 0u64;
            for (i, p) in self.patterns.iter().enumerate() {
                match if loser { p.loser_value } else { Some(p.value) } {
                    Some(v) if v < 0 => return None,
                    Some(_) => valued |= 1 << i,
                    None => {}
                }
            }
            Some(valued)
        });
        plan.gates = self
            .patterns
            .iter()
            .enumerate()
            .filter(|&(i, _)| plan.situational >> i & 1 == 0)
            .filter_map(|(i, p)| {
                let Rule::All(parts) = &p.rule else { return None };
                let gate: Vec<Rule> = parts
                    .iter()
                    .filter(|r| {
                        let reads = r.reads();
                        reads.of_situation() && !reads.waits()
                    })
                    .cloned()
                    .collect();
                (!gate.is_empty()).then_some((i as u8, Rule::All(gate)))
            })
            .collect();
        plan.valid_placed = bits(&valid, Reads::placement);
        plan.extra_placed = bits(&extras, Reads::placement);
        let indices = |m: u64| (0..64u8).filter(|i| m >> i & 1 == 1).collect::<Vec<u8>>();
        plan.class_sets = read.uses.map(indices);
        plan.suit_sets = indices(read.suit_sets);
        plan.reads_suits = read.quantity(Quantity::Suits) || read.quantity(Quantity::Honours);
        plan.reads_home = read.quantity(Quantity::HomeWilds);
        plan.reads_same_chows = read.quantity(Quantity::SameChows);
        plan.reads_fours = read.quantity(Quantity::Fours);
        plan.reads_chow_ends = read.chow_ends;
        let conditions: Vec<Conditions> = self.patterns.iter().map(|p| Conditions::of(&p.rule)).collect();
        plan.pattern_needs = conditions.iter().map(|c| c.needs).collect();
        let needs = |said: &[Said]| said.iter().map(|s| Conditions::of(&s.rule).needs).collect();
        (plan.valid_needs, plan.no_win_needs, plan.refuse_needs) =
            (needs(&self.valid), needs(&self.no_win), needs(&self.refuse));
        plan.admits = Admits::of(conditions.iter(), |q| !q.of_situation(), ADMITS_MOST);
        plan.situation_admits = Admits::of(conditions.iter(), Quantity::of_situation, ADMITS_MOST);
        plan.disjoint = conditions
            .iter()
            .map(|a| conditions.iter().enumerate().filter(|(_, b)| a.never_with(b)).fold(0u64, |m, (j, _)| m | 1 << j))
            .collect();
        plan.loser_patterns =
            self.patterns.iter().enumerate().filter(|(_, p)| p.loser_value.is_some()).fold(0, |m, (i, _)| m | 1 << i);
        let nothing = super::facts::Situation::default();
        for (i, set) in self.sets.iter().enumerate() {
            if set.is_fixed() {
                plan.fixed_sets[i] = set.resolve(&nothing);
            } else {
                plan.situation_sets |= 1 << i;
            }
        }
        plan.most_copies = std::array::from_fn(|k| 4 * (self.tiles >> k & 1) as u8);
        for (i, row) in self.group_points.iter().enumerate() {
            for (player, scores) in [row.losers, row.winners].into_iter().enumerate() {
                plan.group_rows[row.state as usize][player] |= (scores as u32) << i;
            }
        }
        let engine = Engine::new(self.name.clone(), self.forms.clone(), self.tiles);
        let mut scheme = Scheme { spec: self, engine, plan };
        scheme.plan.fixed_classes = super::evaluate::fixed_classes(&scheme);
        Ok(scheme)
    }

    /// Whether the ruleset counts face points (a point table or extra points).
    pub fn has_points(&self) -> bool {
        !self.group_points.is_empty() || !self.extra_points.is_empty()
    }

    pub fn hand_size(&self) -> usize {
        self.forms.ready_size()
    }

    pub fn flag(&self, name: &str) -> Option<u8> {
        self.flags.iter().position(|f| f == name).map(|i| i as u8)
    }
}

/// A specification with nothing in it, to be filled in (and then [`Spec::prepare`]d).
pub fn empty(name: &str, forms: Forms) -> Spec {
    Spec {
        name: name.to_string(),
        tiles: tiles::ALL_KINDS,
        flowers: 0,
        forms,
        dragon_sets: false,
        sets: vec![],
        flags: vec![],
        keys: vec![],
        implies: vec![],
        refuse: vec![],
        patterns: vec![],
        exclusion: Exclusion::EveryHit,
        valid: vec![],
        no_win: vec![],
        group_points: vec![],
        extra_points: vec![],
        total: Total::Sum,
        rank: vec![RankKey::Total],
        stop: None,
        fallbacks: vec![],
        unwon: Unwon::Refused,
        dealt_flag: None,
        self_drawn_flag: None,
        seat_flower_wild: false,
        flower_wilds: false,
        seat_flowers: [0; 4],
        wild_kinds_in_melds: true,
        maximal_partials: false,
        max_wild_kinds: 4,
        incomplete: "not a complete hand".into(),
        wild_name: "wild".into(),
        tiles_note: String::new(),
        eight_pairs_name: "eight_pairs_and_a_half".into(),
    }
}

impl Plan {
    /// Nothing worked out yet.
    fn empty() -> Plan {
        Plan {
            pattern_needs: vec![],
            valid_needs: vec![],
            no_win_needs: vec![],
            refuse_needs: vec![],
            placement_sensitive: false,
            reads_waits: false,
            pung_ranks: false,
            class_sets: [vec![], vec![], vec![]],
            suit_sets: vec![],
            reads_suits: false,
            reads_home: false,
            reads_chow_ends: false,
            reads_same_chows: false,
            reads_fours: false,
            late: 0,
            late_exact: 0,
            late_reads: 0,
            situational: 0,
            gates: vec![],
            admits: Admits::default(),
            situation_admits: Admits::default(),
            disjoint: vec![],
            known_from_groups: 0,
            valued: [None; 2],
            placed: 0,
            valid_placed: 0,
            extra_placed: 0,
            fixed_sets: [0; MAX_SETS],
            situation_sets: 0,
            loser_patterns: 0,
            fixed_classes: [[0; KINDS]; 3],
            most_copies: [0; KINDS],
            group_rows: [[0; 2]; GROUP_STATES],
        }
    }
}

const _: () = assert!(KINDS <= 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hu_tai_totals() {
        let t = Total::HuTai { base: 20, cap: 300, step: 10 };
        assert_eq!(t.of(2, 14, false, true), 140); // (14 + 20) x 4 = 136 -> 140
        assert_eq!(t.of(5, 0, false, true), 300);
        assert_eq!(t.of(1, 8, false, false), 20); // a loser: 8 x 2 = 16 -> 20
        assert_eq!(t.of(0, 0, true, true), 300);
    }

    #[test]
    fn gates_are_the_situation_parts_of_conjunctions() {
        use super::super::rule::{Cmp, Quantity};
        let pattern = |id: &str, rule: Rule| Pattern {
            id: id.into(),
            value: 1,
            loser_value: None,
            rule,
            excludes: 0,
            lazi: false,
            instant: false,
            class: 0,
        };
        let wilds_held = Rule::Is(Quantity::WildTiles, Cmp::Eq, 1);
        let mut s = empty("test", Forms::standard(4));
        s.patterns = vec![
            // Arrangement and situation parts: the situation's are its gate.
            pattern("mixed", Rule::All(vec![Rule::Form(1), wilds_held.clone(), Rule::Flag(0)])),
            // The situation alone: judged once anyway, no gate.
            pattern("situation", Rule::All(vec![wilds_held.clone(), Rule::Flag(0)])),
            // No situation part, and a part reading the waits (costly; judged where needed).
            pattern("groups", Rule::All(vec![Rule::Form(1), Rule::Is(Quantity::Chows, Cmp::Eq, 0)])),
            pattern("waits", Rule::All(vec![Rule::Form(1), Rule::OnlyWait(0)])),
        ];
        s.sets = vec![KindSet::Fixed(1)];
        let s = s.prepare().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.plan.gates, vec![(0, Rule::All(vec![wilds_held, Rule::Flag(0)]))]);
    }

    #[test]
    fn refusals_read_the_situation_and_the_declared_melds_alone() {
        use super::super::rule::{Cmp, Quantity};
        let said = |rule: Rule| Said { rule, message: "no".into() };
        let mut s = empty("test", Forms::standard(4));
        // 杠上花 without a kong: the declared melds are known before any arrangement.
        s.refuse = vec![said(Rule::All(vec![Rule::Flag(0), Rule::Is(Quantity::Kongs, Cmp::Eq, 0)]))];
        assert!(s.prepare().is_ok());
        // Chows are known only in an arrangement: bad ruleset data.
        let mut s = empty("test", Forms::standard(4));
        s.refuse = vec![said(Rule::Is(Quantity::Chows, Cmp::Eq, 0))];
        assert!(s.prepare().is_err_and(|e| e.to_string().contains("declared melds")));
    }
}
