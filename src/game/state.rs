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
        }
    }

    /// The tile the action names, if it names one.
    pub fn tile(self) -> Option<Tile> {
        match self {
            Action::Discard(t) | Action::Chow(t) | Action::ConcealedKong(t) | Action::AddedKong(t) => Some(t),
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
    /// The tile turned up for the wilds.
    Indicator { tile: Tile },
    /// A decision of a seat.
    Act { seat: u8, action: Action },
    /// A claim resolved: `seat` melds the discard of `from`.
    Claim { seat: u8, from: u8, meld: Meld },
    /// A win, with the total the ruleset's scorer gave it.
    Win { seat: u8, tile: Tile, discarder: Option<u8>, total: i32 },
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
}

/// A win, its facts and the total scored.
#[derive(Clone, Debug)]
pub struct Won {
    pub facts: WinFacts,
    pub total: i32,
}

/// Why seats are asked about a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    Discard,
    /// A kong being added: only a win (抢杠).
    Rob,
    /// The 海底 tile its taker did not win on: only a win (海底炮).
    Haidi,
}

/// What each seat may do about a tile, by bit: win, pung, kong, chows (lowest tile at
/// offsets -2, -1, 0 of the discard).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Options {
    win: Option<i32>,
    pung: bool,
    kong: bool,
    chows: u8,
}

impl Options {
    fn any(&self) -> bool {
        self.win.is_some() || self.pung || self.kong || self.chows != 0
    }
}

#[derive(Clone, Debug)]
enum Phase {
    /// `seat` holds a tile over ready size: discard, kong or win. `drawn` is the tile
    /// drawn (None after a claim: no win, no kong); `replacement` after a kong.
    Turn {
        seat: u8,
        drawn: Option<Tile>,
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
    front: usize,
    back: usize,
    pub hands: [Hand; 4],
    /// Discards by seat, in order, and whether each was claimed.
    pub rivers: [Vec<(Tile, bool)>; 4],
    /// Copies of each kind in sight: discards and exposed melds.
    seen: Counts,
    pub wild_kinds: u64,
    pub indicator: Option<Tile>,
    pub dealer: u8,
    phase: Phase,
    /// 漏胡: seats that passed a discard win and have not drawn since.
    pub passed_win: u8,
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
    pub exhausted: bool,
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
        Game::with_wall(rules, judge, wall, seed)
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
        Ok(Game::with_wall(rules, judge, wall, 0))
    }

    fn with_wall(rules: Arc<Rules>, judge: Arc<Judge>, wall: Vec<u8>, seed: u64) -> Game {
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
            dealer: 0,
            phase: Phase::Done,
            passed_win: 0,
            waits: [None; 4],
            scored: Default::default(),
            discards: 0,
            made: vec![],
            wins: vec![],
            events: vec![],
            haidi_taker: None,
            exhausted: false,
        };
        g.deal();
        g
    }

    fn deal(&mut self) {
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
        for (s, tiles) in dealt.iter().enumerate() {
            self.events.push(Event::Deal { seat: s as u8, tiles: tiles.clone() });
            for &t in tiles {
                self.put(s as u8, t);
            }
        }
        // 补花 after the deal, the dealer first ("如果是起手摸到的花牌，则在摸好13张牌后再补牌").
        let mut last = extra;
        for i in 0..4 {
            let s = (self.dealer + i) % 4;
            for _ in 0..dealt[s as usize].iter().filter(|&&t| t >= FLOWER).count() {
                match self.replace_flowers_once(s) {
                    Some(t) if s == self.dealer => last = t,
                    Some(_) => {}
                    None => return self.end(),
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
        let mut before = self.hands[self.dealer as usize].clone();
        before.concealed[last as usize] -= 1;
        let waits = self.judge.waits(&before, self.wild_kinds);
        self.enter_turn(self.dealer, Some(last), false, waits);
    }

    /// Draws from the back for one flower, and on for flowers drawn then: the kind that
    /// ends it, or None when the wall runs out.
    fn replace_flowers_once(&mut self, seat: u8) -> Option<Tile> {
        loop {
            if self.drawable() == 0 {
                return None;
            }
            self.back -= 1;
            let t = self.wall[self.back];
            self.events.push(Event::Draw { seat, tile: t, back: true });
            self.put(seat, t);
            if t < FLOWER {
                return Some(t);
            }
        }
    }

    /// Puts a wall tile in a hand: a kind among the concealed tiles, a flower aside.
    fn put(&mut self, seat: u8, t: u8) {
        let h = &mut self.hands[seat as usize];
        if t >= FLOWER {
            // A flower changes no waits, but it may change a score (花牌, Hainan's 番).
            h.flowers |= 1 << (t - FLOWER);
            self.events.push(Event::Flower { seat, flower: t - FLOWER });
            self.scored[seat as usize].clear();
        } else {
            h.concealed[t as usize] += 1;
            self.changed(seat);
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

    /// Tiles that may still be drawn.
    pub fn drawable(&self) -> usize {
        let kongs = self.made.iter().filter(|m| m.meld.kind.is_kong()).count();
        let kept = self.rules.kept as usize + self.rules.kept_per_kong as usize * kongs.saturating_sub(1);
        (self.back - self.front).saturating_sub(kept)
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
            Phase::Turn { seat, .. } | Phase::Haidi { seat, .. } => 1 << seat,
            Phase::Claims { options, answers, .. } => {
                (0..4).filter(|&s| options[s].any() && answers[s].is_none()).fold(0, |m, s| m | 1 << s)
            }
            Phase::Done => 0,
        }
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

    /// No claim but a win on a discard made now: no draw may follow it (the seed of
    /// Hainan: "倒数第二张玩家摸进后打出的牌不允许吃碰杠，只能胡").
    fn last_discard(&self) -> bool {
        let left = self.drawable();
        left == 0 || (!self.rules.last_discard && left == 1)
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
                if self.is_last() && drawn.is_some() && !self.rules.last_discard {
                    out.push(Action::Pass);
                    return;
                }
                let h = &self.hands[seat as usize];
                for t in 0..KINDS as u8 {
                    if h.concealed[t as usize] > 0 {
                        out.push(Action::Discard(t));
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
                } else if passed + 1 == 4 {
                    self.end();
                } else {
                    self.phase = Phase::Haidi { seat: next(s), passed: passed + 1 };
                }
            }
            Phase::Done => {}
        }
        Ok(())
    }

    fn turn(&mut self, seat: u8, action: Action, drawn: Option<Tile>, replacement: bool, win: Option<i32>) {
        let s = seat as usize;
        match action {
            Action::Win => {
                let t = drawn.expect("a win in turn has a drawn tile");
                let facts = self.self_drawn_facts(seat, t, replacement);
                self.win(facts, win.unwrap_or(0));
                self.end();
            }
            Action::Pass => {
                // The last tile, not won by its drawer.
                let t = drawn.expect("a pass in turn follows the last draw");
                if self.rules.haidi && self.haidi_taker == Some(seat) {
                    self.offer(seat, t, Claim::Haidi);
                } else {
                    self.end();
                }
            }
            Action::Discard(t) => {
                self.hands[s].concealed[t as usize] -= 1;
                self.changed(seat);
                self.rivers[s].push((t, false));
                self.seen[t as usize] += 1;
                self.discards += 1;
                self.offer(seat, t, Claim::Discard);
            }
            Action::ConcealedKong(t) => {
                self.hands[s].concealed[t as usize] -= 4;
                self.meld(seat, None, Meld { kind: MeldKind::ConcealedKong, tile: t, from: None });
                self.replacement(seat);
            }
            Action::AddedKong(t) => {
                // Others may rob it before it stands.
                self.offer(seat, t, Claim::Rob);
            }
            _ => unreachable!("checked legal"),
        }
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
                opt.win = self.score(&facts);
            }
            if why == Claim::Discard && !last && !wild {
                let c = &self.hands[os].concealed;
                opt.pung = c[tile as usize] >= 2;
                opt.kong = c[tile as usize] == 3 && self.kong_allowed();
                if self.rules.chow && i == 1 && !tiles::is_honour(tile) {
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
        if options.iter().any(Options::any) {
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
        let winners: Vec<u8> = order.into_iter().filter(|&o| answers[o as usize] == Some(Action::Win)).collect();
        if !winners.is_empty() {
            let take = if self.rules.winners == Winners::First { 1 } else { winners.len() };
            for &o in &winners[..take] {
                let facts = self.claimed_facts(o, from, tile, why);
                self.win(facts, options[o as usize].win.unwrap_or(0));
            }
            return self.end();
        }
        match why {
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
                    _ => unreachable!("ranked claims"),
                };
                self.events.push(Event::Claim { seat: o, from, meld });
                self.meld(o, Some(from), meld);
                if a == Action::Kong {
                    self.replacement(o);
                } else {
                    self.phase = Phase::Turn { seat: o, drawn: None, replacement: false, win: None };
                }
            }
        }
    }

    fn meld(&mut self, seat: u8, from: Option<u8>, meld: Meld) {
        let h = &mut self.hands[seat as usize];
        h.melds.push(meld);
        self.changed(seat);
        self.made.push(Made { seat, from, meld });
    }

    /// The draw of `seat` from the front (its turn), or the 海底 offer, or the end.
    fn draw_front(&mut self, seat: u8) {
        if self.drawable() == 0 {
            return self.end();
        }
        if self.rules.haidi && self.drawable() == 1 {
            self.phase = Phase::Haidi { seat, passed: 0 };
            return;
        }
        self.draw(seat);
    }

    /// `seat` draws the next tile (and replaces the flowers it draws).
    fn draw(&mut self, seat: u8) {
        self.passed_win &= !(1 << seat);
        // The waits of the hand before the draw decide a self-drawn win (flowers drawn
        // on the way change no waits).
        let waits = self.waits_of(seat);
        let t = self.wall[self.front];
        self.front += 1;
        self.events.push(Event::Draw { seat, tile: t, back: false });
        self.put(seat, t);
        let drawn = if t >= FLOWER { self.replace_flowers_once(seat) } else { Some(t) };
        match drawn {
            Some(d) => self.enter_turn(seat, Some(d), false, waits),
            None => self.end(),
        }
    }

    /// The replacement after a kong, from the end of the wall.
    fn replacement(&mut self, seat: u8) {
        self.passed_win &= !(1 << seat);
        let waits = self.waits_of(seat);
        match self.replace_flowers_once(seat) {
            Some(t) => self.enter_turn(seat, Some(t), true, waits),
            None => self.end(),
        }
    }

    /// `seat` to play with `drawn` (None after a claim); `waits` those of its hand before
    /// the draw, which decide whether it may win.
    fn enter_turn(&mut self, seat: u8, drawn: Option<Tile>, replacement: bool, waits: u64) {
        let win = match drawn {
            Some(t) if waits >> t & 1 == 1 => {
                self.judge.score(&self.self_drawn_facts(seat, t, replacement)).ok().flatten()
            }
            _ => None,
        };
        self.phase = Phase::Turn { seat, drawn, replacement, win };
    }

    fn end(&mut self) {
        self.exhausted = self.wins.is_empty();
        self.events.push(Event::End { exhausted: self.exhausted });
        self.phase = Phase::Done;
    }

    fn win(&mut self, facts: WinFacts, total: i32) {
        self.events.push(Event::Win { seat: facts.seat, tile: facts.win, discarder: facts.discarder, total });
        self.wins.push(Won { facts, total });
    }

    /// The hand of `seat` changed: its waits and scores are found again.
    fn changed(&mut self, seat: u8) {
        self.waits[seat as usize] = None;
        self.scored[seat as usize].clear();
    }

    /// The ruleset's score of a win (None: not a win), kept while the hand stands.
    fn score(&mut self, f: &WinFacts) -> Option<i32> {
        let flags =
            [f.self_drawn, f.kong_replacement, f.robbing_kong, f.wall_last, f.last_of_kind, f.heavenly, f.earthly];
        let bits = flags.iter().enumerate().fold(0u64, |m, (i, &b)| m | (b as u64) << i);
        let key = f.win as u64 | bits << 8 | (f.discarder.map_or(7, |d| d as u64)) << 16;
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
        let w = if h.size() == self.rules.hand_size() { self.judge.waits(h, self.wild_kinds) } else { 0 };
        self.waits[s] = Some(w);
        w
    }

    /// No claim, kong or discard but the dealer's first yet (天胡, 地胡).
    fn untouched(&self) -> bool {
        self.made.is_empty()
    }

    fn facts(&self, seat: u8, hand: Hand, win: Tile) -> WinFacts {
        WinFacts {
            seat: (seat + 4 - self.dealer) % 4,
            hand,
            win,
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
        }
    }

    fn self_drawn_facts(&self, seat: u8, t: Tile, replacement: bool) -> WinFacts {
        let mut hand = self.hands[seat as usize].clone();
        hand.concealed[t as usize] -= 1;
        let mut f = self.facts(seat, hand, t);
        f.self_drawn = true;
        f.kong_replacement = replacement;
        f.wall_last = self.is_last();
        f.last_of_kind = self.seen[t as usize] == 3;
        f.heavenly = seat == self.dealer && self.discards == 0 && self.untouched();
        f
    }

    fn claimed_facts(&self, seat: u8, from: u8, t: Tile, why: Claim) -> WinFacts {
        let mut f = self.facts(seat, self.hands[seat as usize].clone(), t);
        f.discarder = Some(from);
        match why {
            Claim::Discard => {
                f.wall_last = self.rules.last_discard && self.is_last();
                // The discard itself is among the tiles seen.
                f.last_of_kind = self.seen[t as usize] == 4;
                f.earthly = from == self.dealer && self.discards == 1 && self.untouched();
            }
            Claim::Rob => {
                f.robbing_kong = true;
                f.last_of_kind = self.seen[t as usize] == 3;
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

/// An action as its dict says it, for messages.
pub fn describe(a: Action) -> String {
    match a.tile() {
        Some(t) => format!("{{'type': '{}', 'tile': '{}'}}", a.name(), tiles::name(t)),
        None => format!("{{'type': '{}'}}", a.name()),
    }
}
