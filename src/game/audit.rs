//! The game's promise checked: a `win` is offered exactly when the ruleset's scorer says
//! the hand wins. Hands are played by random agents with every win weighed kept
//! ([`Game::audited`]); each is scored again by the scorer alone, without the game's
//! quick tests of waits, and the two must agree, both ways.

use std::ops::Range;
use std::sync::Arc;

use super::rng::{game_seed, Rng, AGENT_STREAM};
use super::rules::{Judge, Rules, WinFacts};
use super::simulate::MAX_DECISIONS;
use super::state::{Action, Chance, Game, Weighed};
use crate::parallel;

/// Every kind of chance, in the order of the counts.
pub const CHANCES: [Chance; 7] =
    [Chance::Draw, Chance::Discard, Chance::Rob, Chance::RobConcealed, Chance::Haidi, Chance::Dealt, Chance::Split];

/// Chances kept of each kind, won and not, to be scored again by the Python `evaluate`.
const SAMPLES: usize = 8;

/// A chance where the game and the scorer disagree.
#[derive(Clone, Debug)]
pub struct Finding {
    pub chance: Chance,
    /// None for a win among the actions that the game never weighed.
    pub facts: Option<WinFacts>,
    /// The scorer's total (None: no win), or its error.
    pub scored: Result<Option<i32>, String>,
    pub offered: Option<i32>,
}

/// What an audit found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Chances weighed, and wins offered among them, by kind (the order of [`CHANCES`]).
    pub weighed: [u64; 7],
    pub offered: [u64; 7],
    pub findings: Vec<Finding>,
    /// A few chances of each kind, wins and not, with the total offered.
    pub samples: Vec<(Chance, WinFacts, Option<i32>)>,
}

impl Report {
    pub fn merge(&mut self, other: Report) {
        for k in 0..CHANCES.len() {
            self.weighed[k] += other.weighed[k];
            self.offered[k] += other.offered[k];
        }
        self.findings.extend(other.findings);
        for s in other.samples {
            let k = index(s.0);
            let won = s.2.is_some();
            if self.samples.iter().filter(|x| index(x.0) == k && x.2.is_some() == won).count() < SAMPLES {
                self.samples.push(s);
            }
        }
    }
}

fn index(c: Chance) -> usize {
    CHANCES.iter().position(|&k| k == c).unwrap_or(0)
}

/// The scorer's own verdict on a chance: barred chances are no win, a concealed kong is
/// robbed only by a win counting the ruleset's pattern.
fn verdict(rules: &Rules, judge: &Judge, w: &Weighed) -> Result<Option<i32>, String> {
    if w.barred {
        return Ok(None);
    }
    let scored = if w.chance == Chance::RobConcealed {
        match judge.pattern(&rules.rob_concealed_kong) {
            Some(i) => judge.score_counting(&w.facts, Some(i)),
            None => Ok(None),
        }
    } else {
        judge.score(&w.facts)
    };
    scored.map_err(|e| e.to_string())
}

/// Plays hand `seed` with random agents that take a win offered one time in four (so
/// that most hands reach their last tiles), and checks every chance weighed.
pub fn audit_hand(rules: &Arc<Rules>, judge: &Arc<Judge>, seed: u64) -> Report {
    let mut g = Game::audited(rules.clone(), judge.clone(), seed);
    let mut rng = Rng::new(seed ^ AGENT_STREAM);
    let mut report = Report::default();
    let mut legal: Vec<Action> = Vec::with_capacity(24);
    let mut done = 0;
    let mut check = |g: &mut Game, report: &mut Report| {
        let weighed = g.weighed.as_deref().unwrap_or_default();
        for w in &weighed[done..] {
            let k = index(w.chance);
            report.weighed[k] += 1;
            report.offered[k] += w.offered.is_some() as u64;
            let scored = verdict(rules, judge, w);
            if scored.as_ref().ok() != Some(&w.offered) {
                report.findings.push(Finding {
                    chance: w.chance,
                    facts: Some(w.facts.clone()),
                    scored,
                    offered: w.offered,
                });
            }
            let won = w.offered.is_some();
            if report.samples.iter().filter(|x| x.0 == w.chance && x.2.is_some() == won).count() < SAMPLES {
                report.samples.push((w.chance, w.facts.clone(), w.offered));
            }
        }
        done = weighed.len();
    };
    check(&mut g, &mut report);
    for _ in 0..MAX_DECISIONS {
        let awaited = g.to_act();
        if awaited == 0 {
            break;
        }
        let seat = awaited.trailing_zeros() as u8;
        g.legal_into(seat, &mut legal);
        // A win among the actions was weighed, and offered, last for this seat.
        if legal.contains(&Action::Win) {
            let last = g.weighed.as_deref().unwrap_or_default().iter().rev().find(|w| w.facts.seat == seat);
            if last.is_none_or(|w| w.offered.is_none()) {
                report.findings.push(Finding {
                    chance: last.map_or(Chance::Draw, |w| w.chance),
                    facts: last.map(|w| w.facts.clone()),
                    scored: Err("a win among the actions that the game did not offer when it weighed it".into()),
                    offered: None,
                });
            }
        }
        let others: Vec<Action> = legal.iter().copied().filter(|&a| a != Action::Win).collect();
        let a = if others.is_empty() || (legal.len() > others.len() && rng.below(4) == 0) {
            Action::Win
        } else {
            others[rng.below(others.len() as u32) as usize]
        };
        // A legal action is always taken.
        let _ = g.step(seat, a);
        check(&mut g, &mut report);
    }
    report
}

/// [`audit_hand`] for the hands `games` of a batch from `seed` (hand `i` dealt as
/// `simulate`'s hand `i`), on the shared pool.
pub fn audit(rules: &Arc<Rules>, judge: &Arc<Judge>, games: Range<usize>, seed: u64) -> Report {
    let first = games.start;
    let parts = parallel::map(games.len(), 2, 8, |i| audit_hand(rules, judge, game_seed(seed, (first + i) as u64)));
    let mut report = Report::default();
    for p in parts {
        report.merge(p);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcr_offers_exactly_the_wins_it_scores() {
        let rules = Arc::new(Rules { name: "mcr".into(), flowers: 0xFF, ..Rules::default() });
        let judge = Arc::new(Judge::mcr(Default::default()));
        let report = audit(&rules, &judge, 0..60, 4);
        assert!(report.findings.is_empty(), "{:?}", report.findings.first());
        assert!(report.weighed[index(Chance::Draw)] > 1000 && report.weighed[index(Chance::Discard)] > 3000);
        assert!(report.samples.iter().any(|s| s.2.is_none()));
    }
}
