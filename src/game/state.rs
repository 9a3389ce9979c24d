//! One hand of mahjong as a state machine: the wall, the deal, draws and replacements,
//! flowers, discards, claims resolved by priority, kongs and robbing them, the last
//! tiles, and the end. What differs between rulesets comes from [`Rules`] and the
//! [`Judge`]; docs/game.md says what is modelled and quotes the seeds.

use std::sync::Arc;

use super::rng::Rng;
use super::rules::{Judge, Rules, WildRule, WinFacts, Winners};
use crate::error::{HandError, Result};
use crate::hand::{Hand, Meld, MeldKind};
use crate::score::situation::next_kind;
use crate::tiles::{self, Counts, Tile, KINDS};

/// Wall codes: a kind `0..34`, or a flower `FLOWER + f`.
pub const FLOWER: u8 = KINDS as u8;

/// What a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Discard(Tile),
    /// Chow on the discard, named by the chow's lowest tile.
    Chow(Tile),
    Pung,
    /// An exposed kong on the discard (明杠).
    Kong,
    /// 暗杠 of four concealed tiles.
    ConcealedKong(Tile),
    /// 加杠: the fourth tile added to a melded pung.
    AddedKong(Tile),
    Win,
    Pass,
    /// Take the last tile offered (海底).
    Take,
    /// Discard the tile and lay the hand open, ready (明听).
    OpenReady(Tile),
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Discard(_) => "discard",
            Action::Chow(_) => "chow",
            Action::Pung => "pung",
            Action::Kong => "kong",
            Action::ConcealedKong(_) => "concealed_kong",
            Action::AddedKong(_) => "added_kong",
            Action::Win => "win",
            Action::Pass => "pass",
            Action::Take => "take",
            Action::OpenReady(_) => "open_ready",
        }
    }

    /// The tile the action names, if it names one.
    pub fn tile(self) -> Option<Tile> {
        match self {
            Action::Discard(t)
            | Action::Chow(t)
            | Action::ConcealedKong(t)
            | Action::AddedKong(t)
            | Action::OpenReady(t) => Some(t),
            _ => None,
        }
    }

    /// Priority among claims on a discard: win, then kong and pung, then chow.
    fn rank(self) -> u8 {
        match self {
            Action::Win => 3,
            Action::Kong | Action::Pung => 2,
            Action::Chow(_) => 1,
            _ => 0,
        }
    }
}

/// Something that happened, in order: the log of a hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The tiles dealt to a seat (flowers among them).
    Deal { seat: u8, tiles: Vec<u8> },
    /// A tile drawn; `back` from the end of the wall (a replacement).
    Draw { seat: u8, tile: u8, back: bool },
    /// A flower set aside (补花).
    Flower { seat: u8, flower: u8 },
    /// The tile turned up for the wilds (a wall code: a flower for Longgang's 花财神).
    Indicator { tile: u8 },
    /// A decision of a seat.
    Act { seat: u8, action: Action },
    /// A claim resolved: `seat` melds the discard of `from`.
    Claim { seat: u8, from: u8, meld: Meld },
    /// A win, with the total the ruleset's scorer gave it; `tile` a wall code (a wild
    /// flower may win), None for a win on the dealt hand.
    Win { seat: u8, tile: Option<u8>, discarder: Option<u8>, total: i32 },
    /// The end; `exhausted` when nobody won.
    End { exhausted: bool },
}

/// A meld made, for the outcome records (包牌, kongs paid, melds counted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    pub seat: u8,
    /// The seat whose discard was claimed; None for a concealed or added kong.
    pub from: Option<u8>,
    pub meld: Meld,
    /// The discard claimed for it (None for a concealed or added kong).
    pub claimed: Option<Tile>,
}

/// A win, its facts and the total scored.
#[derive(Clone, Debug)]
pub struct Won {
    pub facts: WinFacts,
    pub total: i32,
}

/// Why seats are asked about a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    Discard,
    /// A kong being added: only a win (抢杠).
    Rob,
    /// A concealed kong being made, where the ruleset lets a pattern rob it: only a win,
    /// scored as self-drawn.
    RobConcealed,
    /// The 海底 tile its taker did not win on: only a win (海底炮).
    Haidi,
}

/// Where a win may be had: a tile drawn (or a replacement), another's discard, a kong
/// being added or made concealed, the 海底 tile shown, a dealt hand, a 分张 tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance {
    Draw,
    Discard,
    Rob,
    RobConcealed,
    Haidi,
    Dealt,
    Split,
}

impl Chance {
    pub fn name(self) -> &'static str {
        match self {
            Chance::Draw => "draw",
            Chance::Discard => "discard",
            Chance::Rob => "rob",
            Chance::RobConcealed => "rob_concealed",
            Chance::Haidi => "haidi",
            Chance::Dealt => "dealt",
            Chance::Split => "split",
        }
    }
}

impl From<Claim> for Chance {
    fn from(c: Claim) -> Chance {
        match c {
            Claim::Discard => Chance::Discard,
            Claim::Rob => Chance::Rob,
            Claim::RobConcealed => Chance::RobConcealed,
            Claim::Haidi => Chance::Haidi,
        }
    }
}

/// A win the game weighed, kept when the game is audited (`super::audit`): its facts,
/// the total offered (None: no win offered), and whether a rule of play besides the
/// scorer barred it (漏胡).
#[derive(Clone, Debug)]
pub struct Weighed {
    pub chance: Chance,
    pub facts: WinFacts,
    pub offered: Option<i32>,
    pub barred: bool,
}

/// What each seat may do about a tile, by bit: win, pung, kong, chows (lowest tile at
/// offsets -2, -1, 0 of the discard).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Options {
    pub(crate) win: Option<i32>,
    pub(crate) pung: bool,
    pub(crate) kong: bool,
    pub(crate) chows: u8,
}

impl Options {
    fn any(&self) -> bool {
        self.win.is_some() || self.pung || self.kong || self.chows != 0
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Phase {
    /// `seat` holds a tile over ready size: discard, kong or win. `drawn` is the tile
    /// drawn, a wall code (None after a claim: no win, no kong); `replacement` after a kong.
    Turn {
        seat: u8,
        drawn: Option<u8>,
        replacement: bool,
        win: Option<i32>,
    },
    /// Seats answer a tile: `options` for each, `answers` as they come.
    Claims {
        from: u8,
        tile: Tile,
        why: Claim,
        options: [Options; 4],
        answers: [Option<Action>; 4],
    },
    /// The 海底 tile is offered to `seat`; `passed` seats have let it go.
    Haidi {
        seat: u8,
        passed: u8,
    },
    /// Seats whose dealt hand wins at once (`options`, with the totals) answer; then the
    /// dealer plays `drawn`, its last tile dealt.
    Dealt {
        options: [Option<i32>; 4],
        answers: [Option<Action>; 4],
        drawn: u8,
    },
    /// 分张: `seat` took `drawn` (a wall code) and may win on it (`win`) or keep it.
    Split {
        seat: u8,
        drawn: u8,
        win: i32,
    },
    Done,
}

/// One hand.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Arc<Rules>,
    pub judge: Arc<Judge>,
    pub seed: u64,
    /// The wall in drawing order; draws take `front`, replacements `back - 1`.
    pub wall: Vec<u8>,
    /// The wall as dealt, where a replacement taken among the last tiles to draw moved
    /// one of them to the end of `wall` ([`Game::dealt_wall`]).
    moved_from: Option<Vec<u8>>,
    pub(crate) front: usize,
    pub(crate) back: usize,
    pub hands: [Hand; 4],
    /// Discards by seat, in order, and whether each was claimed.
    pub rivers: [Vec<(Tile, bool)>; 4],
    /// Copies of each kind in sight: discards and exposed melds.
    seen: Counts,
    pub wild_kinds: u64,
    /// The tile turned up for the wilds, when a kind.
    pub indicator: Option<Tile>,
    /// The flower turned up when every flower is wild (花财神).
    pub flower_wilds: Option<u8>,
    pub dealer: u8,
    pub(crate) phase: Phase,
    /// 漏胡: seats that passed a discard win and have not drawn since.
    pub passed_win: u8,
    /// 过水碰: by seat, the kinds whose pung it let go since its draw; and the kinds it
    /// discarded since its draw, which it may not chow (`Rules::claim_bars`).
    pub(crate) passed_pung: [u64; 4],
    pub(crate) discarded: [u64; 4],
    /// The kinds the seat to move may not discard after its claim (`Rules::claim_bars`).
    pub(crate) barred: u64,
    waits: [Option<u64>; 4],
    /// Scores of wins tried on the hand as it stands, by the facts that change them (a
    /// ready hand is offered the same tile again and again).
    scored: [Vec<(u64, Option<i32>)>; 4],
    pub discards: u32,
    /// Claims and kongs made (any: no 天胡 / 地胡 after one).
    pub made: Vec<Made>,
    pub wins: Vec<Won>,
    pub events: Vec<Event>,
    pub haidi_taker: Option<u8>,
    /// Seats still to take a 分张 tile, and the 分张 tile each kept (not won on).
    split_left: u8,
    pub split_kept: [Option<u8>; 4],
    /// A single tile tops the kept stacks (王牌 of 10幢半).
    single: bool,
    /// The seat whose added kong was robbed, and the tile.
    pub robbed: Option<(u8, Tile)>,
    /// Seats that laid their hand open (明听), by bit.
    pub open: u8,
    pub exhausted: bool,
    /// Every win weighed, when the game is audited (None in play).
    pub weighed: Option<Vec<Weighed>>,
    /// How many hands running the dealer has kept the deal (the carry's 连庄 streak):
    /// known to every seat, read by the observations only.
    pub streak: u8,
}

fn next(seat: u8) -> u8 {
    (seat + 1) % 4
}

impl Game {
    /// The tile set in order: four copies of each kind, then the flowers.
    pub fn tile_set(rules: &Rules) -> Vec<u8> {
        let mut wall: Vec<u8> = Vec::with_capacity(rules.wall_size());
        for t in tiles::mask_tiles(rules.tiles) {
            wall.extend([t; 4]);
        }
        wall.extend((0..8).filter(|f| rules.flowers >> f & 1 == 1).map(|f| FLOWER + f));
        wall
    }

    /// Deals a hand: the wall shuffled from `seed`, seat 0 the dealer.
    pub fn new(rules: Arc<Rules>, judge: Arc<Judge>, seed: u64) -> Game {
        let mut wall = Game::tile_set(&rules);
        Rng::new(seed).shuffle(&mut wall);
        Game::with_wall(rules, judge, wall, seed, false)
    }

    /// [`Game::new`], every win weighed kept in `weighed` (for `super::audit`).
    pub fn audited(rules: Arc<Rules>, judge: Arc<Judge>, seed: u64) -> Game {
        let mut wall = Game::tile_set(&rules);
        Rng::new(seed).shuffle(&mut wall);
        Game::with_wall(rules, judge, wall, seed, true)
    }

    /// Deals a hand from a wall given in drawing order: it must hold the tile set exactly.
    pub fn from_wall(rules: Arc<Rules>, judge: Arc<Judge>, wall: Vec<u8>) -> Result<Game> {
        let mut sorted = wall.clone();
        sorted.sort_unstable();
        if sorted != Game::tile_set(&rules) {
            return Err(HandError::invalid(format!(
                "a wall of {} holds its tile set once: four of each kind played and one of each flower ({} tiles)",
                rules.name,
                rules.wall_size()
            )));
        }
        Ok(Game::with_wall(rules, judge, wall, 0, false))
    }

    fn with_wall(rules: Arc<Rules>, judge: Arc<Judge>, wall: Vec<u8>, seed: u64, audited: bool) -> Game {
        let back = wall.len();
        let mut g = Game {
            rules,
            judge,
            seed,
            wall,
            front: 0,
            back,
            hands: Default::default(),
            rivers: Default::default(),
            seen: [0; KINDS],
            wild_kinds: 0,
            indicator: None,
            flower_wilds: None,
            dealer: 0,
            phase: Phase::Done,
            passed_win: 0,
            passed_pung: [0; 4],
            discarded: [0; 4],
            barred: 0,
            waits: [None; 4],
            scored: Default::default(),
            discards: 0,
            made: vec![],
            wins: vec![],
            events: vec![],
            haidi_taker: None,
            split_left: 0,
            split_kept: [None; 4],
            single: false,
            moved_from: None,
            robbed: None,
            open: 0,
            exhausted: false,
            weighed: audited.then(Vec::new),
            streak: 0,
        };
        g.deal();
        g
    }

    fn deal(&mut self) {
        if self.rules.wild == WildRule::Turned {
            // 翻财神 before the deal: the tile turned up stays at the end of the wall, out of play.
            self.back -= 1;
            let t = self.wall[self.back];
            self.events.push(Event::Indicator { tile: t });
            if t >= FLOWER {
                self.flower_wilds = Some(t - FLOWER);
            } else {
                self.indicator = Some(t);
                self.wild_kinds = 1 << t;
                self.seen[t as usize] += 1;
            }
        }
        let size = self.rules.hand_size();
        let mut dealt: [Vec<u8>; 4] = Default::default();
        // Four tiles a seat at a time, then the rest one by one, then the dealer's extra.
        for round in 0..size.div_ceil(4) {
            for s in 0..4 {
                let n = (size - 4 * round).min(4);
                for _ in 0..n {
                    let t = self.wall[self.front];
                    self.front += 1;
                    dealt[(self.dealer as usize + s) % 4].push(t);
                }
            }
        }
        let extra = self.wall[self.front];
        self.front += 1;
        dealt[self.dealer as usize].push(extra);
        let mut pending = [0u8; 4];
        for (s, tiles) in dealt.iter().enumerate() {
            self.events.push(Event::Deal { seat: s as u8, tiles: tiles.clone() });
            for &t in tiles {
                pending[s] += self.put(s as u8, t) as u8;
            }
        }
        // 补花 after the deal ("如果是起手摸到的花牌，则在摸好13张牌后再补牌"), the dealer first and
        // in turn, each seat replacing its flowers, then again for the flowers so drawn
        // ("由庄家开始依反时针方向，依次于牌垛后方补足与花牌相等之牌 ... 若所补之牌仍然有花，则于大家补完
        // 牌后说「再补」").
        let mut last = extra;
        while pending.iter().any(|&n| n > 0) {
            for i in 0..4 {
                let s = (self.dealer + i) % 4;
                for _ in 0..std::mem::take(&mut pending[s as usize]) {
                    if self.drawable() == 0 {
                        return self.end();
                    }
                    let t = self.take_back(s);
                    if self.put(s, t) {
                        pending[s as usize] += 1;
                    } else if s == self.dealer {
                        last = t;
                    }
                }
            }
        }
        if self.rules.wild == WildRule::Indicator {
            // The indicator is turned up from the end of the wall and stays there, out of play.
            if self.drawable() == 0 {
                return self.end();
            }
            self.back -= 1;
            let t = self.wall[self.back];
            self.indicator = Some(t);
            self.wild_kinds = 1 << next_kind(t);
            self.seen[t as usize] += 1;
            self.events.push(Event::Indicator { tile: t });
        }
        if self.rules.dealt_wins {
            let mut options = [None; 4];
            for s in 0..4u8 {
                let facts = self.dealt_facts(s);
                options[s as usize] = self.judge.score(&facts).ok().flatten();
                self.weigh(Chance::Dealt, facts, options[s as usize], false);
            }
            if options.iter().any(Option::is_some) {
                self.phase = Phase::Dealt { options, answers: [None; 4], drawn: last };
                return;
            }
        }
        self.dealer_turn(last);
    }

    /// The dealer's first turn, `last` its last tile dealt.
    fn dealer_turn(&mut self, last: u8) {
        let before = self.without(self.dealer, last);
        let waits = self.judge.waits_with(&before, self.wild_kinds, self.held_wilds(self.dealer, &before));
        self.enter_turn(self.dealer, Some(last), false, waits);
    }

    /// The facts of a win on the dealt hand of `seat` (起手胡).
    fn dealt_facts(&self, seat: u8) -> WinFacts {
        let mut f = self.facts(seat, self.hands[seat as usize].clone(), 0);
        f.dealt = true;
        f.self_drawn = true;
        f
    }

    /// The hand of `seat` less one tile (a wall code).
    fn without(&self, seat: u8, t: u8) -> Hand {
        let mut h = self.hands[seat as usize].clone();
        if t >= FLOWER {
            h.flowers &= !(1 << (t - FLOWER));
        } else {
            h.concealed[t as usize] -= 1;
        }
        h
    }

    /// A tile from the end of the wall for `seat` (a replacement), logged.
    fn take_back(&mut self, seat: u8) -> u8 {
        if self.rules.kept_stacks {
            // The kept tiles stay whole stacks: a single on top is taken first (10幢半 back to
            // 10幢); else a stack is broken and one more joins them, but among the last
            // tiles to draw the replacement is one of them ("从海底牌处末一张").
            if self.single {
                self.single = false;
            } else if self.drawable() > self.rules.split as usize {
                self.single = true;
            } else if self.drawable() > 0 {
                // The last tile to draw moves to the end, past the kept tiles (their
                // order kept), and is taken from there; the wall as dealt is kept.
                let last = self.front + self.drawable() - 1;
                self.moved_from.get_or_insert_with(|| self.wall.clone());
                self.wall[last..self.back].rotate_left(1);
            }
        }
        self.back -= 1;
        let t = self.wall[self.back];
        self.events.push(Event::Draw { seat, tile: t, back: true });
        t
    }

    /// Draws from the back for one flower (or a kong), and on for flowers drawn then: the
    /// tile that ends it (a kind, or a flower kept as a wild) and whether a flower was set
    /// aside on the way; None when the wall runs out.
    fn replace_flowers_once(&mut self, seat: u8) -> Option<(u8, bool)> {
        let mut flowered = false;
        loop {
            if self.drawable() == 0 {
                return None;
            }
            let t = self.take_back(seat);
            if !self.put(seat, t) {
                return Some((t, flowered));
            }
            flowered = true;
        }
    }

    /// The flowers `seat` keeps in its hand as wilds (bit f): every flower when they are
    /// the wilds, else its own flower where the 坐花 is wild (seat 0 the first flower).
    pub(crate) fn kept_flowers(&self, seat: u8) -> u8 {
        if self.flower_wilds.is_some() {
            0xFF
        } else if self.rules.seat_flower_wild {
            1 << ((seat + 4 - self.dealer) % 4)
        } else {
            0
        }
    }

    /// The wild flowers `hand` of `seat` holds.
    pub fn held_wilds(&self, seat: u8, hand: &Hand) -> u8 {
        (hand.flowers & self.kept_flowers(seat)).count_ones() as u8
    }

    /// The wilds proper (正财神) `seat` holds: the wild kinds' copies, or the flowers when
    /// they are the wilds (a 坐花 is not one).
    fn true_wilds(&self, seat: u8) -> u8 {
        let h = &self.hands[seat as usize];
        let kinds: u8 = tiles::mask_tiles(self.wild_kinds).map(|t| h.concealed[t as usize]).sum();
        kinds + if self.flower_wilds.is_some() { h.flowers.count_ones() as u8 } else { 0 }
    }

    /// Whether `seat` holds enough wilds proper to win at once (推土机).
    fn instant(&self, seat: u8) -> bool {
        self.rules.instant_wilds > 0 && self.true_wilds(seat) >= self.rules.instant_wilds
    }

    /// Puts a wall tile in a hand: a kind among the concealed tiles, a flower aside (true:
    /// it wants a replacement) or, a wild flower, kept in the hand.
    fn put(&mut self, seat: u8, t: u8) -> bool {
        if t >= FLOWER {
            let f = t - FLOWER;
            self.hands[seat as usize].flowers |= 1 << f;
            if self.kept_flowers(seat) >> f & 1 == 1 {
                self.changed(seat);
                return false;
            }
            // A flower set aside changes no waits, but it may change a score (花牌, Hainan's 番).
            self.events.push(Event::Flower { seat, flower: f });
            self.scored[seat as usize].clear();
            true
        } else {
            self.hands[seat as usize].concealed[t as usize] += 1;
            self.changed(seat);
            false
        }
    }

    /// The copies of each kind `seat` sees outside its own hand: discards, the others'
    /// exposed melds, the indicator.
    pub fn seen_by(&self, seat: u8) -> Counts {
        let mut v = self.seen;
        for m in &self.hands[seat as usize].melds {
            if m.kind != MeldKind::ConcealedKong {
                let mut own = [0u8; KINDS];
                m.add_to(&mut own);
                for t in 0..KINDS {
                    v[t] -= own[t];
                }
            }
        }
        v
    }

    /// The tile turned up for the wilds (a wall code), if any.
    pub fn turned(&self) -> Option<u8> {
        self.indicator.or(self.flower_wilds.map(|f| FLOWER + f))
    }

    /// Each seat's first discard is the same tile and none was claimed: the dealer may
    /// have been followed (跟庄, 烧庄; the rulesets' `game_outcome` read the order).
    pub fn dealer_followed(&self) -> bool {
        let Some(&(t, _)) = self.rivers[0].first() else {
            return false;
        };
        self.rivers.iter().all(|r| r.first() == Some(&(t, false)))
    }

    /// Tiles that may still be drawn.
    pub fn drawable(&self) -> usize {
        let kongs = self.made.iter().filter(|m| m.meld.kind.is_kong()).count();
        let mut kept = self.rules.kept as usize + self.rules.kept_per_kong as usize * kongs.saturating_sub(1);
        kept += self.single as usize;
        (self.back - self.front).saturating_sub(kept)
    }

    /// The wall as dealt, in drawing order (a log's wall, which a replay deals again).
    pub fn dealt_wall(&self) -> &[u8] {
        self.moved_from.as_deref().unwrap_or(&self.wall)
    }

    /// The tiles left in the wall, in drawing order (the birds of Changsha come first).
    pub fn rest(&self) -> &[u8] {
        &self.wall[self.front..self.back]
    }

    pub fn done(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }

    /// The seats whose decision is awaited, by bit.
    pub fn to_act(&self) -> u8 {
        match &self.phase {
            Phase::Turn { seat, .. } | Phase::Haidi { seat, .. } | Phase::Split { seat, .. } => 1 << seat,
            Phase::Claims { from, options, answers, .. } => {
                let every = self.rules.ask_every_seat;
                (0..4)
                    .filter(|&s| (options[s].any() || (every && s != *from as usize)) && answers[s].is_none())
                    .fold(0, |m, s| m | 1 << s)
            }
            Phase::Dealt { options, answers, .. } => {
                (0..4).filter(|&s| options[s].is_some() && answers[s].is_none()).fold(0, |m, s| m | 1 << s)
            }
            Phase::Done => 0,
        }
    }

    /// The kinds of `seat`'s melded pungs it holds the fourth tile of, where that tile is
    /// not discarded (小明杠: "有小明杠若不补杠，则不能打出这张牌").
    fn fourth_tiles(&self, seat: u8) -> u64 {
        if !self.rules.fourth_tile_kept {
            return 0;
        }
        let h = &self.hands[seat as usize];
        h.melds
            .iter()
            .filter(|m| m.kind == MeldKind::Pung && h.concealed[m.tile as usize] > 0)
            .fold(0, |mask, m| mask | 1 << m.tile)
    }

    /// The wind `seat` must discard to follow the dealer (烧庄): the dealer's first discard
    /// was a wind, every seat since followed it unclaimed, `seat` has not discarded yet
    /// and holds it ("如东家打出的第一张牌是风头 ... 南家如果有这张牌则必须打同样的牌，西家和北家的规则也一样
    /// 如此").
    pub(crate) fn follow_duty(&self, seat: u8) -> Option<Tile> {
        if !self.rules.follow_wind || seat == self.dealer || !self.rivers[seat as usize].is_empty() {
            return None;
        }
        let &[(t, false)] = self.rivers[self.dealer as usize].as_slice() else {
            return None;
        };
        if !(tiles::EAST..tiles::WHITE).contains(&t) {
            return None;
        }
        let mut s = next(self.dealer);
        while s != seat {
            if self.rivers[s as usize].as_slice() != [(t, false)] {
                return None;
            }
            s = next(s);
        }
        (self.hands[seat as usize].concealed[t as usize] > 0).then_some(t)
    }

    /// Whether a kong's replacement may be drawn (the 海底 tile stays for its offer).
    fn kong_allowed(&self) -> bool {
        // A kong after the first keeps more tiles back (Beijing): they must be there too.
        let kongs = self.made.iter().filter(|m| m.meld.kind.is_kong()).count();
        let more = if kongs >= 1 { self.rules.kept_per_kong as usize } else { 0 };
        self.drawable() > self.rules.haidi as usize + more
    }

    /// The wall is spent: the tile just drawn was the last one.
    fn is_last(&self) -> bool {
        self.drawable() == 0
    }

    /// No claim but a win on a discard made now: no draw may follow it, or the ruleset
    /// bars claims on the discard before the last tile (the seed of Hainan: "倒数第二张玩家
    /// 摸进后打出的牌不允许吃碰杠，只能胡").
    fn last_discard(&self) -> bool {
        let left = self.drawable();
        left == 0 || (self.rules.before_last_won_only && left == 1)
    }

    /// The legal actions of `seat` (none when it is not to act), in a fixed order.
    pub fn legal(&mut self, seat: u8) -> Vec<Action> {
        let mut out = Vec::with_capacity(16);
        self.legal_into(seat, &mut out);
        out
    }

    pub fn legal_into(&mut self, seat: u8, out: &mut Vec<Action>) {
        out.clear();
        if seat > 3 || self.to_act() >> seat & 1 == 0 {
            return;
        }
        match self.phase.clone() {
            Phase::Turn { drawn, win, .. } => {
                if win.is_some() {
                    out.push(Action::Win);
                }
                let last = self.is_last() && drawn.is_some();
                if last && !self.rules.last_discard {
                    out.push(Action::Pass);
                    return;
                }
                let h = &self.hands[seat as usize];
                // Wilds stay in the hand where the ruleset says so ("财神及坐花在行牌程中不能打出"),
                // unless the hand holds nothing else ("使得手里所有牌为财神").
                let kept = if self.rules.wilds_kept { self.wild_kinds } else { 0 };
                let free = |mask: u64| (0..KINDS).any(|t| h.concealed[t] > 0 && mask >> t & 1 == 0);
                // After a claim, the kinds it bars too (吃牌禁止), and the fourth tile of a
                // melded pung not added to it (小明杠), while another tile is left.
                let bars = self.barred | self.fourth_tiles(seat);
                let kept = if bars != 0 && free(kept | bars) { kept | bars } else { kept };
                let keep = if free(kept) { kept } else { 0 };
                if self.open >> seat & 1 == 1 {
                    // An open hand stands as it was laid down: it discards what it draws.
                    if let Some(t) = drawn.filter(|&t| t < FLOWER) {
                        out.push(Action::Discard(t));
                    }
                    return;
                }
                // The one tile the seat must discard: the last tile drawn and not won on
                // ("必须打出去，不得换其他牌打出"), or the dealer's wind followed (烧庄).
                let only = match drawn {
                    Some(t) if last && self.rules.last_discard_drawn && t < FLOWER => Some(t),
                    _ => self.follow_duty(seat),
                };
                let only = only.filter(|&o| h.concealed[o as usize] > 0 && keep >> o & 1 == 0);
                let may_discard =
                    |t: u8| h.concealed[t as usize] > 0 && keep >> t & 1 == 0 && only.is_none_or(|o| o == t);
                for t in 0..KINDS as u8 {
                    if may_discard(t) {
                        out.push(Action::Discard(t));
                    }
                }
                if self.rules.open_ready && !self.judge.far(h, self.wild_kinds, 0) {
                    // 明听 on a discard that leaves the hand ready.
                    let mut rest = h.clone();
                    for t in 0..KINDS as u8 {
                        if !may_discard(t) {
                            continue;
                        }
                        rest.concealed[t as usize] -= 1;
                        if self.wins_open(seat, &rest) {
                            out.push(Action::OpenReady(t));
                        }
                        rest.concealed[t as usize] += 1;
                    }
                }
                if drawn.is_some() && self.kong_allowed() {
                    for t in 0..KINDS as u8 {
                        if self.wild_kinds >> t & 1 == 1 {
                            continue;
                        }
                        if h.concealed[t as usize] == 4 {
                            out.push(Action::ConcealedKong(t));
                        }
                        if h.concealed[t as usize] >= 1
                            && h.melds.iter().any(|m| m.kind == MeldKind::Pung && m.tile == t)
                        {
                            out.push(Action::AddedKong(t));
                        }
                    }
                }
            }
            Phase::Claims { tile, options, .. } => {
                let o = options[seat as usize];
                if o.win.is_some() {
                    out.push(Action::Win);
                }
                if o.kong {
                    out.push(Action::Kong);
                }
                if o.pung {
                    out.push(Action::Pung);
                }
                for i in 0..3u8 {
                    if o.chows >> i & 1 == 1 {
                        out.push(Action::Chow(tile + i - 2));
                    }
                }
                out.push(Action::Pass);
            }
            Phase::Haidi { .. } => {
                out.push(Action::Take);
                out.push(Action::Pass);
            }
            Phase::Split { .. } | Phase::Dealt { .. } => {
                out.push(Action::Win);
                out.push(Action::Pass);
            }
            Phase::Done => {}
        }
    }

    /// Plays `action` for `seat`; an action not legal now is refused, naming it.
    pub fn step(&mut self, seat: u8, action: Action) -> Result<()> {
        if self.done() {
            return Err(HandError::invalid("the hand is over: no action is taken"));
        }
        if seat > 3 || self.to_act() >> seat & 1 == 0 {
            let awaited: Vec<String> = (0..4).filter(|s| self.to_act() >> s & 1 == 1).map(|s| s.to_string()).collect();
            return Err(HandError::invalid(format!(
                "seat {seat} is not to act (awaited: {})",
                if awaited.is_empty() { "none".to_string() } else { awaited.join(", ") }
            )));
        }
        let legal = self.legal(seat);
        if !legal.contains(&action) {
            return Err(HandError::invalid(format!("{} is not legal for seat {seat} now", describe(action))));
        }
        self.events.push(Event::Act { seat, action });
        match self.phase.clone() {
            Phase::Turn { drawn, replacement, win, .. } => self.turn(seat, action, drawn, replacement, win),
            Phase::Claims { from, tile, why, options, mut answers } => {
                answers[seat as usize] = Some(action);
                self.phase = Phase::Claims { from, tile, why, options, answers };
                if self.to_act() == 0 {
                    self.resolve(from, tile, why, options, answers);
                }
            }
            Phase::Haidi { seat: s, passed } => {
                if action == Action::Take {
                    self.haidi_taker = Some(s);
                    self.draw(s);
                } else if passed + 1 == 4 || !self.rules.haidi_roams {
                    self.end();
                } else {
                    self.phase = Phase::Haidi { seat: next(s), passed: passed + 1 };
                }
            }
            Phase::Dealt { options, mut answers, drawn } => {
                answers[seat as usize] = Some(action);
                self.phase = Phase::Dealt { options, answers, drawn };
                if self.to_act() == 0 {
                    // One win on the dealt hands: the first declared in turn from the dealer.
                    let first =
                        (0..4u8).map(|i| (self.dealer + i) % 4).find(|&s| answers[s as usize] == Some(Action::Win));
                    match first {
                        Some(s) => {
                            let facts = self.dealt_facts(s);
                            self.win(facts, options[s as usize].unwrap_or(0));
                            self.end();
                        }
                        None => self.dealer_turn(drawn),
                    }
                }
            }
            Phase::Split { seat: s, drawn, win } => {
                if action == Action::Win {
                    let mut facts = self.self_drawn_facts(s, drawn, false);
                    // "若能胡牌称海底捞月按自摸算".
                    facts.wall_last = true;
                    self.win(facts, win);
                    self.end();
                } else {
                    self.split_kept[s as usize] = Some(drawn);
                    self.split_draw(next(s));
                }
            }
            Phase::Done => {}
        }
        Ok(())
    }

    fn turn(&mut self, seat: u8, action: Action, drawn: Option<u8>, replacement: bool, win: Option<i32>) {
        let s = seat as usize;
        match action {
            Action::Win => {
                // `legal` offers Win only when `win` is set, and `enter_turn` sets it only
                // on a drawn tile (a turn after a claim has neither).
                let t = drawn.expect("a win in turn has a drawn tile");
                let facts = self.self_drawn_facts(seat, t, replacement);
                self.win(facts, win.unwrap_or(0));
                self.end();
            }
            Action::Pass => {
                // The last tile, not won by its drawer: `legal` offers Pass in a turn only
                // with a drawn tile.
                let t = drawn.expect("a pass in turn follows the last draw");
                if self.rules.haidi && self.haidi_taker == Some(seat) && t < FLOWER {
                    self.offer(seat, t, Claim::Haidi);
                } else {
                    self.end();
                }
            }
            Action::Discard(t) | Action::OpenReady(t) => {
                if matches!(action, Action::OpenReady(_)) {
                    self.open |= 1 << seat;
                }
                self.hands[s].concealed[t as usize] -= 1;
                self.changed(seat);
                self.barred = 0;
                self.discarded[s] |= 1 << t;
                self.rivers[s].push((t, false));
                self.seen[t as usize] += 1;
                self.discards += 1;
                self.offer(seat, t, Claim::Discard);
            }
            Action::ConcealedKong(t) => {
                if self.rules.rob_concealed_kong.is_empty() {
                    self.concealed_kong(seat, t);
                } else {
                    // Others may rob it before it stands ("“一条龙”的“龙身”可以抢其他选手的“暗杠”胡牌").
                    self.offer(seat, t, Claim::RobConcealed);
                }
            }
            Action::AddedKong(t) => {
                // Others may rob it before it stands.
                self.offer(seat, t, Claim::Rob);
            }
            // `step` checked the action against `legal`, which offers a turn no other.
            _ => unreachable!("checked legal"),
        }
    }

    fn concealed_kong(&mut self, seat: u8, t: Tile) {
        self.hands[seat as usize].concealed[t as usize] -= 4;
        self.meld(seat, None, Meld { kind: MeldKind::ConcealedKong, tile: t, from: None }, None);
        self.replacement(seat);
    }

    /// Asks the other seats about `tile` (a discard, a kong being added, the 海底 tile),
    /// or moves on when none may do anything.
    fn offer(&mut self, from: u8, tile: Tile, why: Claim) {
        let mut options = [Options::default(); 4];
        let last = self.last_discard();
        let wild = self.wild_kinds >> tile & 1 == 1;
        for i in 1..4u8 {
            let o = (from + i) % 4;
            let os = o as usize;
            let mut opt = Options::default();
            // 漏胡 bars every win on another's tile (炮胡): a discard, a kong robbed, the 海底 tile.
            let may_win = self.passed_win >> o & 1 == 0;
            if may_win && self.waits_of(o) >> tile & 1 == 1 {
                let facts = self.claimed_facts(o, from, tile, why);
                opt.win = if why == Claim::RobConcealed {
                    // Only a win counting the pattern robs it: scored apart from the cache,
                    // which holds the same facts' total without that condition.
                    let need = self.judge.pattern(&self.rules.rob_concealed_kong);
                    need.and_then(|i| self.judge.score_counting(&facts, Some(i)).ok().flatten())
                } else {
                    self.score(&facts)
                };
            }
            if self.weighed.is_some() {
                let facts = self.claimed_facts(o, from, tile, why);
                self.weigh(why.into(), facts, opt.win, !may_win);
            }
            if why == Claim::Discard && !last && !wild && self.open >> o & 1 == 0 {
                let c = &self.hands[os].concealed;
                let bars = self.rules.claim_bars;
                // "过水碰牌 ... 对家再舍出8万你不能碰 除非已经摸过1巡".
                opt.pung = c[tile as usize] >= 2 && !(bars && self.passed_pung[os] >> tile & 1 == 1);
                opt.kong = c[tile as usize] == 3 && self.kong_allowed();
                // "打出牌後不得於同巡吃入同牌".
                let chow_barred = bars && self.discarded[os] >> tile & 1 == 1;
                if self.rules.chow && i == 1 && !tiles::is_honour(tile) && !chow_barred {
                    let r = tiles::rank(tile) as i32;
                    for (bit, low) in [(0u8, r - 2), (1, r - 1), (2, r)] {
                        if !(1..=7).contains(&low) {
                            continue;
                        }
                        let lo = tile as i32 - (r - low);
                        let ok = (lo..lo + 3)
                            .filter(|&k| k != tile as i32)
                            .all(|k| c[k as usize] > 0 && self.wild_kinds >> k & 1 == 0);
                        if ok {
                            opt.chows |= 1 << bit;
                        }
                    }
                }
            }
            options[os] = opt;
        }
        if self.rules.ask_every_seat || options.iter().any(Options::any) {
            self.phase = Phase::Claims { from, tile, why, options, answers: [None; 4] };
        } else {
            self.resolve(from, tile, why, options, [None; 4]);
        }
    }

    fn resolve(&mut self, from: u8, tile: Tile, why: Claim, options: [Options; 4], answers: [Option<Action>; 4]) {
        let order = [next(from), next(next(from)), next(next(next(from)))];
        if self.rules.passed_win {
            for o in order {
                if options[o as usize].win.is_some() && answers[o as usize] != Some(Action::Win) {
                    self.passed_win |= 1 << o;
                }
            }
        }
        if self.rules.claim_bars {
            for o in order {
                if options[o as usize].pung && answers[o as usize] != Some(Action::Pung) {
                    self.passed_pung[o as usize] |= 1 << tile;
                }
            }
        }
        let mut winners: Vec<u8> = order.into_iter().filter(|&o| answers[o as usize] == Some(Action::Win)).collect();
        // On the dealer's first discard, 三财神 before another win on it ("一家地胡，一家三财神
        // ... 应以三财神优先"); else the first in turn from the discarder ("从打牌者按逆时针方向，
        // 顺序在前者被定为“胡牌者”").
        if matches!(why, Claim::Discard) && from == self.dealer && self.discards == 1 && self.untouched() {
            winners.sort_by_key(|&o| !self.instant(o));
        }
        if !winners.is_empty() {
            if matches!(why, Claim::Rob | Claim::RobConcealed) {
                self.robbed = Some((from, tile));
            }
            let take = if self.rules.winners == Winners::First { 1 } else { winners.len() };
            for &o in &winners[..take] {
                let facts = self.claimed_facts(o, from, tile, why);
                self.win(facts, options[o as usize].win.unwrap_or(0));
            }
            return self.end();
        }
        match why {
            Claim::RobConcealed => self.concealed_kong(from, tile),
            Claim::Rob => {
                let h = &mut self.hands[from as usize];
                h.concealed[tile as usize] -= 1;
                if let Some(m) = h.melds.as_mut_slice().iter_mut().find(|m| m.kind == MeldKind::Pung && m.tile == tile)
                {
                    m.kind = MeldKind::AddedKong;
                }
                self.changed(from);
                self.seen[tile as usize] += 1;
                self.made.push(Made {
                    seat: from,
                    from: None,
                    meld: Meld { kind: MeldKind::AddedKong, tile, from: None },
                    claimed: None,
                });
                self.replacement(from);
            }
            Claim::Haidi => self.end(),
            Claim::Discard => {
                let best = order
                    .into_iter()
                    .filter_map(|o| answers[o as usize].map(|a| (o, a)))
                    .filter(|(_, a)| a.rank() > 0)
                    .max_by_key(|&(o, a)| (a.rank(), 3 - (o + 4 - from) % 4));
                let Some((o, a)) = best else {
                    return self.draw_front(next(from));
                };
                let os = o as usize;
                if let Some(last) = self.rivers[from as usize].last_mut() {
                    last.1 = true;
                }
                let offset = (from + 4 - o) % 4;
                let c = &mut self.hands[os].concealed;
                let meld = match a {
                    Action::Pung => {
                        c[tile as usize] -= 2;
                        self.seen[tile as usize] += 2;
                        Meld { kind: MeldKind::Pung, tile, from: Some(offset) }
                    }
                    Action::Kong => {
                        c[tile as usize] -= 3;
                        self.seen[tile as usize] += 3;
                        Meld { kind: MeldKind::Kong, tile, from: Some(offset) }
                    }
                    Action::Chow(low) => {
                        for k in low..low + 3 {
                            if k != tile {
                                c[k as usize] -= 1;
                                self.seen[k as usize] += 1;
                            }
                        }
                        Meld { kind: MeldKind::Chow, tile: low, from: Some(offset) }
                    }
                    // Wins returned above, and Pass (rank 0) was filtered out.
                    _ => unreachable!("ranked claims"),
                };
                self.events.push(Event::Claim { seat: o, from, meld });
                if self.rules.claim_bars {
                    self.barred = claim_bars(meld, tile);
                }
                self.meld(o, Some(from), meld, Some(tile));
                if a == Action::Kong {
                    self.replacement(o);
                } else {
                    self.phase = Phase::Turn { seat: o, drawn: None, replacement: false, win: None };
                }
            }
        }
    }

    fn meld(&mut self, seat: u8, from: Option<u8>, meld: Meld, claimed: Option<Tile>) {
        let h = &mut self.hands[seat as usize];
        h.melds.push(meld);
        self.changed(seat);
        self.made.push(Made { seat, from, meld, claimed });
    }

    /// The draw of `seat` from the front (its turn), or the 海底 offer, or 分张, or the end.
    fn draw_front(&mut self, seat: u8) {
        if self.drawable() == 0 {
            return self.end();
        }
        if self.drawable() <= self.rules.split as usize {
            self.split_left = 4;
            return self.split_draw(seat);
        }
        if self.rules.haidi && self.drawable() == 1 {
            self.phase = Phase::Haidi { seat, passed: 0 };
            return;
        }
        self.draw(seat);
    }

    /// 分张: `seat` takes the next tile, asked only when it may win on it; then the next
    /// seat, until each has taken one or the tiles are out. A flower so taken is set
    /// aside and not replaced ("分张后禁止补花补杠").
    fn split_draw(&mut self, seat: u8) {
        let mut seat = seat;
        while self.split_left > 0 && self.drawable() > 0 {
            self.split_left -= 1;
            self.drew(seat);
            let waits = self.waits_of(seat);
            let t = self.wall[self.front];
            self.front += 1;
            self.events.push(Event::Draw { seat, tile: t, back: false });
            let aside = self.put(seat, t);
            if !aside {
                let mut facts = self.self_drawn_facts(seat, t, false);
                facts.wall_last = true;
                let win = self.may_win_drawn(seat, t, waits).then(|| self.judge.score(&facts).ok().flatten()).flatten();
                self.weigh(Chance::Split, facts, win, false);
                if let Some(win) = win {
                    self.phase = Phase::Split { seat, drawn: t, win };
                    return;
                }
                self.split_kept[seat as usize] = Some(t);
            }
            seat = next(seat);
        }
        self.end();
    }

    /// `seat` draws: the bars that last until its draw are lifted (漏胡, 过水碰).
    fn drew(&mut self, seat: u8) {
        self.passed_win &= !(1 << seat);
        self.passed_pung[seat as usize] = 0;
        self.discarded[seat as usize] = 0;
    }

    /// `seat` draws the next tile (and replaces the flowers it draws).
    fn draw(&mut self, seat: u8) {
        self.drew(seat);
        // The waits of the hand before the draw decide a self-drawn win (flowers set
        // aside on the way change no waits).
        let waits = self.waits_of(seat);
        let t = self.wall[self.front];
        self.front += 1;
        self.events.push(Event::Draw { seat, tile: t, back: false });
        let drawn = if self.put(seat, t) { self.replace_flowers_once(seat).map(|(t, _)| t) } else { Some(t) };
        match drawn {
            Some(d) => self.enter_turn(seat, Some(d), false, waits),
            None => self.end(),
        }
    }

    /// The replacement after a kong, from the end of the wall.
    fn replacement(&mut self, seat: u8) {
        self.drew(seat);
        let waits = self.waits_of(seat);
        match self.replace_flowers_once(seat) {
            // A tile drawn for a flower the replacement brought is the flower's, not the
            // kong's: a win on it is self-drawn, not 杠上开花 ("46 杠上開花 開杠抓進的牌成和牌
            // (不包括補花)"; "花牌補花成和計自摸分，不計杠上開花").
            Some((t, flowered)) => self.enter_turn(seat, Some(t), !flowered, waits),
            None => self.end(),
        }
    }

    /// `seat` to play with `drawn` (None after a claim); `waits` those of its hand before
    /// the draw, which decide whether it may win.
    fn enter_turn(&mut self, seat: u8, drawn: Option<u8>, replacement: bool, waits: u64) {
        if let Some(t) = drawn.filter(|_| self.drawable() < self.rules.split as usize) {
            // A replacement taken from the 海底 tiles is its taker's 分张 tile, not discarded,
            // and the others share the rest ("若王牌是20张则从海底牌处末一张，下家摸首张，其它家按序各摸
            // 一张，补杠的优先胡牌"; "再补进岭尾最后一张，不用打出，其它三家按序分张").
            self.split_left = 3;
            let mut facts = self.self_drawn_facts(seat, t, replacement);
            facts.wall_last = true;
            let win = self.may_win_drawn(seat, t, waits).then(|| self.judge.score(&facts).ok().flatten()).flatten();
            self.weigh(Chance::Split, facts, win, false);
            match win {
                Some(win) => self.phase = Phase::Split { seat, drawn: t, win },
                None => {
                    self.split_kept[seat as usize] = Some(t);
                    self.split_draw(next(seat));
                }
            }
            return;
        }
        let win = match drawn {
            Some(t) if self.may_win_drawn(seat, t, waits) => {
                self.judge.score(&self.self_drawn_facts(seat, t, replacement)).ok().flatten()
            }
            _ => None,
        };
        if let (Some(t), true) = (drawn, self.weighed.is_some()) {
            let facts = self.self_drawn_facts(seat, t, replacement);
            self.weigh(Chance::Draw, facts, win, false);
        }
        self.phase = Phase::Turn { seat, drawn, replacement, win };
    }

    /// Whether `rest`, laid open by `seat` (明听), is ready for a win the scorer takes:
    /// some kind it waits on, drawn, wins. The waits alone are more than the scorer
    /// allows (a 十三幺 whose pair is no honour, a 中发白 set holding a wild), and a
    /// hand laid open on none of its waits could never win.
    fn wins_open(&self, seat: u8, rest: &Hand) -> bool {
        tiles::mask_tiles(self.judge.waits(rest, self.wild_kinds)).any(|w| {
            let mut f = self.facts(seat, rest.clone(), w);
            f.self_drawn = true;
            f.open_ready = true;
            self.judge.score(&f).ok().flatten().is_some()
        })
    }

    /// Whether the tile `t` (a wall code) just drawn may complete the hand of `seat`,
    /// whose hand before it waited on `waits`: a kind waited on, a wild with any wait,
    /// or enough wilds proper to win at once. The ruleset's scorer has the last word.
    fn may_win_drawn(&self, seat: u8, t: u8, waits: u64) -> bool {
        let wild = if t >= FLOWER { true } else { self.wild_kinds >> t & 1 == 1 };
        (t < FLOWER && waits >> t & 1 == 1) || (wild && waits != 0) || self.instant(seat)
    }

    /// Keeps a win weighed, when the game is audited.
    fn weigh(&mut self, chance: Chance, facts: WinFacts, offered: Option<i32>, barred: bool) {
        if let Some(w) = &mut self.weighed {
            w.push(Weighed { chance, facts, offered, barred });
        }
    }

    fn end(&mut self) {
        self.exhausted = self.wins.is_empty();
        self.events.push(Event::End { exhausted: self.exhausted });
        self.phase = Phase::Done;
    }

    fn win(&mut self, facts: WinFacts, total: i32) {
        let tile = (!facts.dealt).then(|| facts.win_flower.map_or(facts.win, |f| FLOWER + f));
        self.events.push(Event::Win { seat: facts.seat, tile, discarder: facts.discarder, total });
        self.wins.push(Won { facts, total });
    }

    /// The hand of `seat` changed: its waits and scores are found again.
    pub(crate) fn changed(&mut self, seat: u8) {
        self.waits[seat as usize] = None;
        self.scored[seat as usize].clear();
    }

    /// The ruleset's score of a win (None: not a win), kept while the hand stands.
    fn score(&mut self, f: &WinFacts) -> Option<i32> {
        let flags = [
            f.self_drawn,
            f.kong_replacement,
            f.robbing_kong,
            f.wall_last,
            f.last_of_kind,
            f.heavenly,
            f.earthly,
            f.dealt,
            f.open_ready,
        ];
        let bits = flags.iter().enumerate().fold(0u64, |m, (i, &b)| m | (b as u64) << i);
        let tile = f.win_flower.map_or(f.win, |fl| FLOWER + fl) as u64;
        let key = tile | bits << 8 | (f.discarder.map_or(7, |d| d as u64)) << 16;
        let cache = &self.scored[f.seat as usize];
        if let Some(&(_, s)) = cache.iter().find(|(k, _)| *k == key) {
            return s;
        }
        // A scoring error would be the game's own mistake in the facts: no win then, and
        // the tests (every win scored again by `evaluate`) would show it.
        let s = self.judge.score(f).ok().flatten();
        self.scored[f.seat as usize].push((key, s));
        s
    }

    /// The waits of a seat's ready hand, found once per change of the hand.
    fn waits_of(&mut self, seat: u8) -> u64 {
        let s = seat as usize;
        if let Some(w) = self.waits[s] {
            return w;
        }
        let h = &self.hands[s];
        let extra = self.held_wilds(seat, h);
        let w = if h.size() + extra as usize != self.rules.hand_size() {
            0
        } else if self.instant(seat) {
            // Enough wilds proper win on any tile (推土机): the scorer judges each.
            self.rules.tiles
        } else {
            self.judge.waits_with(h, self.wild_kinds, extra)
        };
        self.waits[s] = Some(w);
        w
    }

    /// No claim or kong yet (天胡, 地胡), but the dealer's concealed kongs where they
    /// keep them ("天和：庄家起牌或者补完花（可暗杠）而胡牌").
    fn untouched(&self) -> bool {
        self.made
            .iter()
            .all(|m| self.rules.heavenly_kongs && m.seat == self.dealer && m.meld.kind == MeldKind::ConcealedKong)
    }

    fn facts(&self, seat: u8, hand: Hand, win: Tile) -> WinFacts {
        WinFacts {
            seat: (seat + 4 - self.dealer) % 4,
            hand,
            win,
            win_flower: None,
            dealt: false,
            open_ready: self.open >> seat & 1 == 1,
            discarder: None,
            self_drawn: false,
            kong_replacement: false,
            robbing_kong: false,
            wall_last: false,
            last_of_kind: false,
            heavenly: false,
            earthly: false,
            round_wind: self.rules.round_wind,
            indicator: self.indicator,
            wilds: self.wild_kinds,
            flower_wilds: self.flower_wilds,
        }
    }

    /// The facts of a win on the tile `t` (a wall code) `seat` drew.
    fn self_drawn_facts(&self, seat: u8, t: u8, replacement: bool) -> WinFacts {
        let hand = self.without(seat, t);
        let mut f = self.facts(seat, hand, t.min(FLOWER - 1));
        if t >= FLOWER {
            f.win_flower = Some(t - FLOWER);
        } else {
            f.last_of_kind = self.seen[t as usize] == 3;
        }
        f.self_drawn = true;
        f.kong_replacement = replacement;
        f.wall_last = self.is_last();
        f.heavenly = seat == self.dealer && self.discards == 0 && self.untouched();
        f.earthly = self.earthly_now(seat);
        f
    }

    /// Whether a non-dealer's win now is 地和 where the ruleset counts it before the seat's
    /// own first discard (`earthly_before_own_discard`), no claim or kong made yet.
    fn earthly_now(&self, seat: u8) -> bool {
        self.rules.earthly_before_own_discard
            && seat != self.dealer
            && self.rivers[seat as usize].is_empty()
            && self.untouched()
    }

    fn claimed_facts(&self, seat: u8, from: u8, t: Tile, why: Claim) -> WinFacts {
        let mut f = self.facts(seat, self.hands[seat as usize].clone(), t);
        f.discarder = Some(from);
        match why {
            Claim::Discard => {
                f.wall_last = self.rules.last_discard && self.is_last();
                // The discard itself is among the tiles seen.
                f.last_of_kind = self.seen[t as usize] == 4;
                f.earthly = (from == self.dealer && self.discards == 1 && self.untouched()) || self.earthly_now(seat);
            }
            Claim::Rob => {
                f.robbing_kong = true;
                f.last_of_kind = self.seen[t as usize] == 3;
            }
            Claim::RobConcealed => {
                // "算作自摸胡牌": scored as a win on a tile drawn, which every other seat pays.
                f.discarder = None;
                f.self_drawn = true;
                // The kong robbed is not made: a win before the seat's first discard is
                // still 地和 where that is the rule.
                f.earthly = self.earthly_now(seat);
            }
            Claim::Haidi => {
                f.wall_last = true;
                f.last_of_kind = self.seen[t as usize] == 3;
            }
        }
        f
    }

    /// Every tile accounted for: in the wall, the hands, the melds, the rivers (less the
    /// claimed discards, which are in melds) and the indicator; the counts of the set.
    pub fn tile_counts(&self) -> ([u8; KINDS], u8) {
        let mut c = [0u8; KINDS];
        let mut flowers = 0u8;
        let mut add = |t: u8| {
            if t >= FLOWER {
                flowers += 1;
            } else {
                c[t as usize] += 1;
            }
        };
        self.wall[self.front..self.back].iter().for_each(|&t| add(t));
        if let Some(t) = self.indicator {
            add(t);
        }
        if let Some(f) = self.flower_wilds {
            add(FLOWER + f);
        }
        for s in 0..4 {
            for (t, claimed) in &self.rivers[s] {
                if !claimed {
                    add(*t);
                }
            }
        }
        for h in &self.hands {
            for (k, n) in h.held().iter().enumerate() {
                c[k] += n;
            }
            flowers += h.flowers.count_ones() as u8;
        }
        (c, flowers)
    }
}

/// The kinds a claimer may not discard after `meld`, made on the discard `tile`: the
/// kind punged; the tile chowed, and the one that would make a chow of the other end of
/// the two held ("你有345万 上家舍出2万你喊吃 再舍出5万 ... 这是被禁止的").
fn claim_bars(meld: Meld, tile: Tile) -> u64 {
    match meld.kind {
        MeldKind::Chow => {
            let low = meld.tile;
            let mut bars = 1u64 << tile;
            if tile == low && tiles::rank(low) <= 6 {
                bars |= 1 << (low + 3);
            } else if tile == low + 2 && tiles::rank(low) >= 2 {
                bars |= 1 << (low - 1);
            }
            bars
        }
        _ => 1 << tile,
    }
}

/// An action as its dict says it, for messages: in this thread's spelling, a Python dict
/// (`{'type': 'pung'}`) or a JSON object (`{"type": "pung"}`).
pub fn describe(a: Action) -> String {
    let q = |s: &str| crate::error::Spelling::current().text(s);
    match a.tile() {
        Some(t) => format!("{{{}: {}, {}: {}}}", q("type"), q(a.name()), q("tile"), q(&tiles::name(t))),
        None => format!("{{{}: {}}}", q("type"), q(a.name())),
    }
}
