//! What one seat may know at this moment: the one rule of visibility. The dict
//! observation, the arrays for learning (`super::encode`) and the bot protocols read a
//! seat's game through [`SeatView`] only; nothing else of another seat's hand or of the
//! wall reaches them. docs/learning.md says what is shown and quotes the seeds.
//!
//! A seat sees its own concealed tiles and the tile it drew; every seat's melds with
//! who supplied each, a concealed kong's kind only where the ruleset shows it
//! (`Rules::concealed_kong_shown`); every discard in order and whether it was claimed;
//! the flowers set aside (a flower kept in the hand as a wild stays hidden); how many
//! tiles each seat holds; a hand laid open (明听); the tile on offer; the tiles left; the
//! wilds and the tile turned up for them; and only its own decision.

use super::rng::Rng;
use super::state::{Chance, Game, Phase, FLOWER};
use crate::hand::MeldKind;
use crate::tiles::{Counts, Tile, KINDS};

/// The decision a seat is asked to make now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Its turn after a draw or a replacement: discard, kong or win; `drawn` is the tile
    /// drawn, a wall code (a flower kept as a wild may be one).
    Draw { drawn: u8, replacement: bool },
    /// Its turn after a claim: a discard.
    Claimed,
    /// A tile `from` offers: a discard, a kong being added (`Chance::Rob`), a concealed
    /// kong being made (`Chance::RobConcealed`) or the 海底 tile its taker did not win on
    /// (`Chance::Haidi`); claim it or pass.
    Offer { tile: Tile, from: u8, chance: Chance },
    /// The 海底 tile is offered: take it or let it go.
    HaidiOffer,
    /// A win on the dealt hand (起手胡), or not.
    Dealt,
    /// A 分张 tile taken (`drawn`, a wall code): win on it or keep it.
    Split { drawn: u8 },
}

impl Decision {
    /// The names of the kinds of decision, by [`Decision::kind`].
    pub const NAMES: [&'static str; 9] =
        ["draw", "claimed", "discard", "rob", "rob_concealed", "haidi", "haidi_offer", "dealt", "split"];

    /// The index of its kind in [`Decision::NAMES`].
    pub fn kind(self) -> usize {
        match self {
            Decision::Draw { .. } => 0,
            Decision::Claimed => 1,
            Decision::Offer { chance, .. } => match chance {
                Chance::Rob => 3,
                Chance::RobConcealed => 4,
                Chance::Haidi => 5,
                _ => 2,
            },
            Decision::HaidiOffer => 6,
            Decision::Dealt => 7,
            Decision::Split { .. } => 8,
        }
    }

    pub fn name(self) -> &'static str {
        Decision::NAMES[self.kind()]
    }
}

/// A meld as a seat sees it: `tile` None for a concealed kong whose kind is hidden from it;
/// `from` the seat that supplied the claimed tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenMeld {
    pub kind: MeldKind,
    pub tile: Option<Tile>,
    pub from: Option<u8>,
    /// The tile claimed from `from` (a chow's is any of its three).
    pub claimed: Option<Tile>,
}

impl SeenMeld {
    /// Compact notation; a hidden concealed kong is `{????}`.
    pub fn notation(&self, melder: u8) -> String {
        match self.tile {
            None => "{????}".to_string(),
            Some(t) => {
                let offset = self.from.map(|f| (f + 4 - melder) % 4);
                crate::hand::Meld { kind: self.kind, tile: t, from: offset }.notation()
            }
        }
    }
}

/// A seat's view of a game: what it may know now, and nothing else.
#[derive(Clone, Copy)]
pub struct SeatView<'a> {
    game: &'a Game,
    seat: u8,
}

impl<'a> SeatView<'a> {
    /// The view of `seat` (0-3).
    pub fn new(game: &'a Game, seat: u8) -> SeatView<'a> {
        debug_assert!(seat < 4);
        SeatView { game, seat }
    }

    pub fn seat(&self) -> u8 {
        self.seat
    }

    pub fn dealer(&self) -> u8 {
        self.game.dealer
    }

    /// The prevailing wind, 0-3 (E S W N).
    pub fn round_wind(&self) -> u8 {
        self.game.rules.round_wind
    }

    /// How many hands running the dealer has kept the deal (from the carry).
    pub fn streak(&self) -> u8 {
        self.game.streak
    }

    pub fn done(&self) -> bool {
        self.game.done()
    }

    /// The seat's own concealed tiles (the tile it drew among them).
    pub fn hand(&self) -> &Counts {
        &self.game.hands[self.seat as usize].concealed
    }

    /// Whether the ruleset shows the kind of a concealed kong to the other seats: one
    /// that may be robbed is offered to them, so shown.
    pub fn concealed_kongs_shown(&self) -> bool {
        let r = &self.game.rules;
        r.concealed_kong_shown || !r.rob_concealed_kong.is_empty()
    }

    /// The melds of seat `o`, in the order made, as this seat sees them.
    pub fn melds(&self, o: u8) -> impl Iterator<Item = SeenMeld> + 'a {
        let hidden = o != self.seat && !self.concealed_kongs_shown();
        let g = self.game;
        // The claimed melds of `o` are its `made` entries with a supplier, in order.
        let mut claims = g.made.iter().filter(move |m| m.seat == o && m.from.is_some());
        g.hands[o as usize].melds.iter().map(move |m| {
            let from = m.from.map(|off| (o + off) % 4);
            let concealed = m.kind == MeldKind::ConcealedKong;
            let claimed = if from.is_some() { claims.next().and_then(|c| c.claimed) } else { None };
            SeenMeld { kind: m.kind, tile: (!(concealed && hidden)).then_some(m.tile), from, claimed }
        })
    }

    /// The discards of seat `o` in order, each with whether it was claimed.
    pub fn rivers(&self, o: u8) -> &'a [(Tile, bool)] {
        &self.game.rivers[o as usize]
    }

    /// The flowers of seat `o` this seat sees (bit f): its own all, another's those set
    /// aside (a flower kept in the hand as a wild is one of its concealed tiles).
    pub fn flowers(&self, o: u8) -> u8 {
        let f = self.game.hands[o as usize].flowers;
        if o == self.seat {
            f
        } else {
            f & !self.game.kept_flowers(o)
        }
    }

    /// How many tiles seat `o` holds concealed, the wild flowers kept among them: what
    /// anyone at the table can count.
    pub fn tiles_held(&self, o: u8) -> usize {
        let h = &self.game.hands[o as usize];
        h.concealed_len() + (h.flowers & self.game.kept_flowers(o)).count_ones() as usize
    }

    /// The hand seat `o` laid open (明听), as it was laid: its concealed tiles but the
    /// tile it just drew. None when it has not.
    pub fn open_hand(&self, o: u8) -> Option<Counts> {
        let g = self.game;
        if g.open >> o & 1 == 0 {
            return None;
        }
        let mut c = g.hands[o as usize].concealed;
        let drawn = match g.phase {
            Phase::Turn { seat, drawn: Some(t), .. } | Phase::Split { seat, drawn: t, .. } if seat == o => Some(t),
            _ => None,
        };
        if let Some(t) = drawn.filter(|&t| t < FLOWER) {
            c[t as usize] -= 1;
        }
        Some(c)
    }

    /// Tiles that may still be drawn.
    pub fn drawable(&self) -> usize {
        self.game.drawable()
    }

    /// The tile turned up for the wilds, a wall code (a flower: every flower is wild).
    pub fn turned(&self) -> Option<u8> {
        self.game.turned()
    }

    pub fn indicator(&self) -> Option<Tile> {
        self.game.indicator
    }

    pub fn flower_wilds(&self) -> Option<u8> {
        self.game.flower_wilds
    }

    pub fn wild_kinds(&self) -> u64 {
        self.game.wild_kinds
    }

    /// The tile on offer to the table now and the seat offering it: a discard, a kong
    /// being added or robbed, the 海底 tile shown. Every seat sees it, asked or not.
    pub fn offer(&self) -> Option<(Tile, u8, Chance)> {
        match self.game.phase {
            Phase::Claims { from, tile, why, .. } => Some((tile, from, why.into())),
            _ => None,
        }
    }

    /// The decision this seat is asked now, if any (never another seat's).
    pub fn decision(&self) -> Option<Decision> {
        let g = self.game;
        if g.to_act() >> self.seat & 1 == 0 {
            return None;
        }
        Some(match g.phase {
            Phase::Turn { drawn: Some(d), replacement, .. } => Decision::Draw { drawn: d, replacement },
            Phase::Turn { drawn: None, .. } => Decision::Claimed,
            Phase::Claims { from, tile, why, .. } => Decision::Offer { tile, from, chance: why.into() },
            Phase::Haidi { .. } => Decision::HaidiOffer,
            Phase::Dealt { .. } => Decision::Dealt,
            Phase::Split { drawn, .. } => Decision::Split { drawn },
            Phase::Done => return None,
        })
    }

    /// The seats awaited that this seat may know of: itself when it is asked, else none.
    pub fn to_act(&self) -> u8 {
        self.game.to_act() & 1 << self.seat
    }

    /// The tile this seat drew and holds for its decision, a wall code.
    pub fn drawn(&self) -> Option<u8> {
        match self.decision()? {
            Decision::Draw { drawn, .. } | Decision::Split { drawn } => Some(drawn),
            _ => None,
        }
    }

    /// 漏胡 in force: this seat passed a win on another's tile and has not drawn since.
    pub fn passed_win(&self) -> bool {
        self.game.passed_win >> self.seat & 1 == 1
    }

    /// 过水碰: the kinds this seat let a pung of go since its draw (bit by kind).
    pub fn passed_pungs(&self) -> u64 {
        self.game.passed_pung[self.seat as usize]
    }

    /// The kinds this seat discarded since its draw, which it may not chow (bit by kind).
    pub fn discarded_since_draw(&self) -> u64 {
        self.game.discarded[self.seat as usize]
    }

    /// Whether this seat laid its hand open (明听).
    pub fn is_open(&self, o: u8) -> bool {
        self.game.open >> o & 1 == 1
    }

    /// The seat that took the 海底 tile, if one did.
    pub fn haidi_taker(&self) -> Option<u8> {
        self.game.haidi_taker
    }

    /// The analysis of this seat's own hand (`crate::analyze`) against the tiles it sees
    /// outside it: for a hand with a tile to discard, an entry a discard; otherwise one
    /// entry for the hand as it is. A wild flower it keeps counts as one wild more.
    pub fn analysis(&self) -> crate::error::Result<Vec<crate::analyze::Entry>> {
        let (hand, wilds) = self.own_hand();
        crate::analyze::analyze(self.game.judge.engine(), hand, wilds, &self.game.seen_by(self.seat))
    }

    /// The shanten of this seat's own hand (0 ready, -1 complete); 0 where it cannot be
    /// read (a hand not dealt).
    pub fn shanten(&self) -> i8 {
        let (hand, wilds) = self.own_hand();
        self.game.judge.engine().shanten(hand, wilds).unwrap_or(0)
    }

    /// This seat's hand and its wilds: a wild flower it keeps (Longgang's 坐花, every
    /// flower under a 花财神) is one wild more.
    fn own_hand(&self) -> (&crate::hand::Hand, crate::engine::Wilds) {
        let g = self.game;
        let hand = &g.hands[self.seat as usize];
        // Where the flowers are the wilds, those not held may still be drawn, as
        // `Ruleset.shanten(hand, wilds="3f")` counts them.
        let drawable = match g.flower_wilds {
            Some(_) => crate::engine::Wilds::flowers_left(g.judge.engine().flowers, hand.flowers),
            None => 0,
        };
        (hand, crate::engine::Wilds { kinds: g.wild_kinds, extra: g.held_wilds(self.seat, hand), drawable })
    }

    /// 跟庄 and 烧庄: how many go-rounds from the first the dealer's discard was followed
    /// by the same tile from each other seat, none claimed; and the tile being followed
    /// in the go-round under way, while every discard made in it follows.
    pub fn followed(&self) -> (u8, Option<Tile>) {
        let r = &self.game.rivers;
        let dealer = self.game.dealer as usize;
        let mut rounds = 0u8;
        loop {
            let i = rounds as usize;
            let Some(&(lead, false)) = r[dealer].get(i) else {
                return (rounds, None);
            };
            let order = (0..4).map(|k| (dealer + k) % 4);
            let mut whole = true;
            for s in order {
                match r[s].get(i) {
                    Some(&(t, false)) if t == lead => {}
                    None => whole = false,
                    Some(_) => return (rounds, None),
                }
            }
            if !whole {
                return (rounds, Some(lead));
            }
            rounds += 1;
        }
    }
}

/// `game` with what `seat` may not know dealt again: the concealed tiles of the other
/// seats (but hands laid open) and the unseen tiles of the wall shuffled together from
/// `seed`, each seat keeping its number of tiles. Flowers and concealed kongs stay. For
/// the test that no observation of `seat` changes with it.
pub fn reshuffled(game: &Game, seat: u8, seed: u64) -> Game {
    let mut g = game.clone();
    let others: Vec<usize> = (0..4).filter(|&o| o != seat as usize && g.open >> o & 1 == 0).collect();
    let mut pool: Vec<u8> = vec![];
    for &o in &others {
        for t in 0..KINDS {
            pool.extend(std::iter::repeat_n(t as u8, g.hands[o].concealed[t] as usize));
        }
    }
    let (front, back) = (g.front, g.back);
    pool.extend(g.wall[front..back].iter().copied().filter(|&t| t < FLOWER));
    Rng::new(seed).shuffle(&mut pool);
    let mut next = pool.into_iter();
    for &o in &others {
        let n = g.hands[o].concealed_len();
        let mut c = [0u8; KINDS];
        for t in next.by_ref().take(n) {
            c[t as usize] += 1;
        }
        g.hands[o].concealed = c;
        g.changed(o as u8);
    }
    for i in front..back {
        if g.wall[i] < FLOWER {
            g.wall[i] = next.next().expect("as many tiles as were taken");
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::rng::Rng;
    use crate::game::rules::{Judge, Rules};

    fn mcr(seed: u64) -> Game {
        let rules = Rules { name: "mcr".into(), flowers: 0xFF, ..Rules::default() };
        Game::new(Arc::new(rules), Arc::new(Judge::mcr(Default::default())), seed)
    }

    #[test]
    fn a_reshuffle_keeps_every_tile_and_each_seats_count_and_changes_only_the_others() {
        let mut changed = 0;
        for seed in 0..40 {
            let mut g = mcr(seed);
            let mut rng = Rng::new(seed);
            while !g.done() {
                let seat = (0..4).find(|&s| g.to_act() >> s & 1 == 1).unwrap();
                let legal = g.legal(seat);
                g.step(seat, legal[rng.below(legal.len() as u32) as usize]).unwrap();
                let again = reshuffled(&g, seat, seed);
                assert_eq!(again.tile_counts(), g.tile_counts());
                assert_eq!(again.hands[seat as usize], g.hands[seat as usize]);
                for o in 0..4 {
                    let (a, b) = (&again.hands[o], &g.hands[o]);
                    assert_eq!(
                        (a.concealed_len(), a.melds.len(), a.flowers),
                        (b.concealed_len(), b.melds.len(), b.flowers)
                    );
                    changed += (a.concealed != b.concealed) as usize;
                }
                assert_eq!(
                    again.rest().iter().filter(|&&t| t >= FLOWER).count(),
                    g.rest().iter().filter(|&&t| t >= FLOWER).count()
                );
            }
        }
        assert!(changed > 1000);
    }

    #[test]
    fn a_seat_is_shown_only_its_own_decision() {
        let g = mcr(3);
        let dealer = SeatView::new(&g, 0);
        assert!(matches!(dealer.decision(), Some(Decision::Draw { .. })) && dealer.to_act() == 1);
        for s in 1..4 {
            let v = SeatView::new(&g, s);
            assert_eq!((v.decision(), v.to_act(), v.drawn()), (None, 0, None));
        }
    }
}
