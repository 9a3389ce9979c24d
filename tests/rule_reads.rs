//! The one walk over a rule that says what it reads (`Rule::reads`) against the separate
//! walks it replaced, kept here as they were: for every rule (and every part of one) of
//! every regional ruleset's scheme, with each set of options, and for rules of every kind
//! nested in every combination, each answers as before.

use _core::score::data::{self, Data};
use _core::score::group::Role;
use _core::score::rule::{role_bit, Cmp, Quantity, Reads, Rule};

/// The separate walks, as they were.
trait Old {
    fn old_reads_placement(&self) -> bool;
    fn old_of_situation(&self) -> bool;
    fn old_of_counted(&self) -> bool;
    fn old_of_groups_known(&self) -> bool;
    fn old_of_declared(&self) -> bool;
    fn old_of_known(&self, form: bool) -> bool;
    fn old_reads_waits(&self) -> bool;
    fn old_reads_pung_ranks(&self) -> bool;
    fn old_set_uses(&self, out: &mut Vec<(u8, u8)>);
    fn old_quantities(&self, out: &mut Vec<Quantity>);
    fn old_reads_chow_ends(&self) -> bool;
    fn old_sets(&self, kinds: &mut Vec<u8>, suits: &mut Vec<u8>);
    fn old_before_scoring(&self) -> bool;
}

fn old_q_after(q: Quantity) -> bool {
    matches!(q, Quantity::Total | Quantity::Value | Quantity::FanCount)
}

fn old_q_situation(q: Quantity) -> bool {
    matches!(
        q,
        Quantity::WildTiles
            | Quantity::ExtraWilds
            | Quantity::Wilds
            | Quantity::WildKinds
            | Quantity::SeatFlower
            | Quantity::GuestFlowers
            | Quantity::Flowers
            | Quantity::AllFlowers
            | Quantity::FlowerWilds
            | Quantity::Seat
            | Quantity::SeatGiven
            | Quantity::Won
            | Quantity::Discarder
    )
}

/// The patterns a rule names (it was in `scheme.rs`).
fn old_pattern_refs(rule: &Rule) -> Vec<u8> {
    match rule {
        Rule::Patterns(m) => (0..64).filter(|i| m >> i & 1 == 1).collect(),
        Rule::Not(r) | Rule::Compare(r, _, _) => old_pattern_refs(r),
        Rule::All(v) | Rule::Any(v) => v.iter().flat_map(old_pattern_refs).collect(),
        _ => vec![],
    }
}

impl Old for Rule {
    /// Whether the rule reads where the winning tile sits.
    fn old_reads_placement(&self) -> bool {
        match self {
            Rule::Win { .. } | Rule::Count(Quantity::ConcealedTriplets) => true,
            Rule::Is(q, _, _) => *q == Quantity::ConcealedTriplets,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_reads_placement(),
            Rule::All(v) | Rule::Any(v) => v.iter().any(Rule::old_reads_placement),
            _ => false,
        }
    }

    /// Whether the rule reads the situation alone: it has the same count for every
    /// arrangement, so it is judged once.
    fn old_of_situation(&self) -> bool {
        match self {
            Rule::Always | Rule::Flag(_) | Rule::OnlyWait(_) => true,
            Rule::Is(q, _, _) | Rule::Count(q) => old_q_situation(*q),
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_of_situation(),
            Rule::All(v) | Rule::Any(v) => v.iter().all(Rule::old_of_situation),
            _ => false,
        }
    }

    /// Whether the rule reads the patterns counted and the situation alone (no total).
    fn old_of_counted(&self) -> bool {
        match self {
            Rule::Patterns(_) => true,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_of_counted(),
            Rule::All(v) | Rule::Any(v) => v.iter().all(Rule::old_of_counted),
            r => r.old_of_situation(),
        }
    }

    /// Whether the rule's count is known once some groups of a complete hand are: it
    /// reads the situation (not the waits), the form, the declared melds and the wilds a
    /// complete hand is scored with (all the situation's) alone.
    fn old_of_groups_known(&self) -> bool {
        self.old_of_known(true)
    }

    /// Whether the rule reads the situation (not the waits) and the declared melds
    /// alone: its count is known before any arrangement is (kongs are declared).
    fn old_of_declared(&self) -> bool {
        self.old_of_known(false)
    }

    fn old_of_known(&self, form: bool) -> bool {
        match self {
            Rule::Always | Rule::Flag(_) => true,
            Rule::Form(_) => form,
            Rule::Is(q, _, _) | Rule::Count(q) => {
                old_q_situation(*q)
                    || matches!(q, Quantity::Declared | Quantity::Exposed | Quantity::Kongs)
                    || (form && matches!(q, Quantity::SeatFlowerUsed | Quantity::RealWildsUsed))
            }
            Rule::Run { kongs: true, .. } | Rule::SameRankKongs => true,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_of_known(form),
            Rule::All(v) | Rule::Any(v) => v.iter().all(|r| r.old_of_known(form)),
            _ => false,
        }
    }

    /// Whether the rule reads the waits of the hand.
    fn old_reads_waits(&self) -> bool {
        match self {
            Rule::OnlyWait(_) => true,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_reads_waits(),
            Rule::All(v) | Rule::Any(v) => v.iter().any(Rule::old_reads_waits),
            _ => false,
        }
    }

    /// Whether the rule tells kinds apart by rank beyond the sets it names: runs of pungs.
    fn old_reads_pung_ranks(&self) -> bool {
        match self {
            Rule::Run { .. } | Rule::SameRankKongs => true,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_reads_pung_ranks(),
            Rule::All(v) | Rule::Any(v) => v.iter().any(Rule::old_reads_pung_ranks),
            _ => false,
        }
    }

    /// The sets it names with the groups they tell apart: bit 0 pungs, bit 1 chows, bit 2
    /// pairs (a set of winning-tile kinds tells apart the groups its roles fall in).
    fn old_set_uses(&self, out: &mut Vec<(u8, u8)>) {
        match self {
            Rule::Triplets(s) => out.push((*s, 0b001)),
            Rule::Pairs(s) => out.push((*s, 0b100)),
            Rule::AllTiles(s) | Rule::AnyTile(s) => out.push((*s, 0b111)),
            Rule::Win { roles, kinds } => {
                let bit = |r: Role| roles >> role_bit(r) & 1 == 1;
                let mut uses = 0u8;
                if bit(Role::Pung) {
                    uses |= 0b001;
                }
                if bit(Role::Closed) || bit(Role::Edge) || bit(Role::Open) {
                    uses |= 0b010;
                }
                if bit(Role::Single) {
                    uses |= 0b100;
                }
                out.push((*kinds, uses));
            }
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_set_uses(out),
            Rule::All(v) | Rule::Any(v) => v.iter().for_each(|r| r.old_set_uses(out)),
            _ => {}
        }
    }

    /// The quantities it reads.
    fn old_quantities(&self, out: &mut Vec<Quantity>) {
        match self {
            Rule::Is(q, _, _) | Rule::Count(q) => out.push(*q),
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_quantities(out),
            Rule::All(v) | Rule::Any(v) => v.iter().for_each(|r| r.old_quantities(out)),
            _ => {}
        }
    }

    /// Whether it reads a chow's ends (the edge or open roles of the winning tile).
    fn old_reads_chow_ends(&self) -> bool {
        match self {
            Rule::Win { roles, .. } => roles >> role_bit(Role::Edge) & 1 == 1 || roles >> role_bit(Role::Open) & 1 == 1,
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_reads_chow_ends(),
            Rule::All(v) | Rule::Any(v) => v.iter().any(Rule::old_reads_chow_ends),
            _ => false,
        }
    }

    /// The sets it names, and the suits its straights are of (by set index).
    fn old_sets(&self, kinds: &mut Vec<u8>, suits: &mut Vec<u8>) {
        match self {
            Rule::Triplets(s) | Rule::Pairs(s) | Rule::AllTiles(s) | Rule::AnyTile(s) | Rule::OnlyWait(s) => {
                kinds.push(*s)
            }
            Rule::Win { kinds: s, .. } => kinds.push(*s),
            Rule::Straight(s) => suits.push(*s),
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_sets(kinds, suits),
            Rule::All(v) | Rule::Any(v) => v.iter().for_each(|r| r.old_sets(kinds, suits)),
            _ => {}
        }
    }

    /// Whether it can be judged before the patterns are counted.
    fn old_before_scoring(&self) -> bool {
        match self {
            Rule::Patterns(_) => false,
            Rule::Is(q, _, _) | Rule::Count(q) => !old_q_after(*q),
            Rule::Not(r) | Rule::Compare(r, _, _) => r.old_before_scoring(),
            Rule::All(v) | Rule::Any(v) => v.iter().all(Rule::old_before_scoring),
            _ => true,
        }
    }
}

/// A mask of indices.
fn mask(items: impl IntoIterator<Item = u8>) -> u64 {
    items.into_iter().fold(0, |m, i| m | 1 << i)
}

/// The new answers against the old for one rule.
fn check(rule: &Rule) {
    let r = rule.reads();
    let at = format!("{rule:?}");
    assert_eq!(r.placement(), rule.old_reads_placement(), "placement of {at}");
    assert_eq!(r.of_situation(), rule.old_of_situation(), "of_situation of {at}");
    assert_eq!(r.of_counted(), rule.old_of_counted(), "of_counted of {at}");
    assert_eq!(r.of_groups_known(), rule.old_of_groups_known(), "of_groups_known of {at}");
    assert_eq!(r.of_declared(), rule.old_of_declared(), "of_declared of {at}");
    assert_eq!(r.waits(), rule.old_reads_waits(), "waits of {at}");
    assert_eq!(r.pung_ranks, rule.old_reads_pung_ranks(), "pung ranks of {at}");
    assert_eq!(r.chow_ends, rule.old_reads_chow_ends(), "chow ends of {at}");
    assert_eq!(r.before_scoring(), rule.old_before_scoring(), "before_scoring of {at}");
    let mut uses = vec![];
    rule.old_set_uses(&mut uses);
    let by_use = |bit: u8| mask(uses.iter().filter(|(_, u)| u & bit != 0).map(|&(s, _)| s));
    assert_eq!(r.uses, [by_use(0b001), by_use(0b010), by_use(0b100)], "set uses of {at}");
    let mut quantities = vec![];
    rule.old_quantities(&mut quantities);
    assert_eq!(r.quantities, quantities.iter().fold(0, |m, q| m | q.bit()), "quantities of {at}");
    let (mut kinds, mut suits) = (vec![], vec![]);
    rule.old_sets(&mut kinds, &mut suits);
    assert_eq!((r.sets, r.suit_sets), (mask(kinds), mask(suits)), "sets of {at}");
    assert_eq!(r.patterns, mask(old_pattern_refs(rule)), "patterns of {at}");
    assert!(!r.far_set, "{at}");
    // The bounds' lighter walk reads the same kinds of facts.
    assert_eq!(rule.facts_read(), Reads { facts: r.facts, ..Reads::default() }, "{at}");
}

/// The rule and each of its parts, at every depth.
fn parts(rule: &Rule, out: &mut Vec<Rule>) {
    out.push(rule.clone());
    match rule {
        Rule::Not(r) | Rule::Compare(r, _, _) => parts(r, out),
        Rule::All(v) | Rule::Any(v) => v.iter().for_each(|r| parts(r, out)),
        _ => {}
    }
}

fn to_data(v: &serde_json::Value) -> Data {
    use serde_json::Value as J;
    match v {
        J::Null => Data::None,
        J::Bool(b) => Data::Bool(*b),
        J::Number(n) => n.as_i64().map_or(Data::Other("float".into()), Data::Int),
        J::String(s) => Data::Str(s.clone()),
        J::Array(items) => Data::List(items.iter().map(to_data).collect()),
        J::Object(items) => Data::Dict(items.iter().map(|(k, v)| (k.clone(), to_data(v))).collect()),
    }
}

#[test]
fn every_rule_of_every_ruleset_reads_as_the_old_walks_said() {
    let mut checked = 0;
    for name in ["changsha", "hainan", "longgang", "tangshan", "beijing"] {
        let path = format!("{}/fuzz/schemes/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let variants: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        for v in variants.as_array().into_iter().flatten() {
            let s = data::read(&to_data(v)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let mut rules = vec![];
            let said = s.valid.iter().chain(&s.no_win).chain(&s.refuse).map(|x| &x.rule);
            let all = s.patterns.iter().map(|p| &p.rule).chain(said);
            let all = all.chain(s.extra_points.iter().map(|e| &e.rule)).chain(s.fallbacks.iter().map(|f| &f.rule));
            for r in all {
                parts(r, &mut rules);
            }
            rules.iter().for_each(check);
            checked += rules.len();
        }
    }
    // Every ruleset and option read.
    assert!(checked > 1_500, "{checked}");
}

#[test]
fn rules_of_every_kind_read_as_the_old_walks_said() {
    let roles = |rs: &[Role]| rs.iter().fold(0u8, |m, &r| m | 1 << role_bit(r));
    let mut leaves = vec![
        Rule::Always,
        Rule::Flag(3),
        Rule::Form(0b101),
        Rule::Triplets(1),
        Rule::Pairs(2),
        Rule::AllTiles(3),
        Rule::AnyTile(4),
        Rule::Straight(5),
        Rule::OnlyWait(6),
        Rule::Run { kongs: false, len: 3 },
        Rule::Run { kongs: true, len: 4 },
        Rule::SameRankKongs,
        Rule::Patterns(1 << 7),
        Rule::Patterns(1 << 63),
        Rule::Patterns(1 << 2 | 1 << 40),
    ];
    for r in Role::ALL {
        leaves.push(Rule::Win { roles: roles(&[r]), kinds: 8 });
    }
    leaves.push(Rule::Win { roles: roles(&[Role::Closed, Role::Single]), kinds: 9 });
    leaves.push(Rule::Win { roles: 0, kinds: 10 });
    for (_, q) in Quantity::NAMES {
        leaves.push(Rule::Count(q));
        leaves.push(Rule::Is(q, Cmp::Ge, 2));
    }
    let mut rules = leaves.clone();
    for a in &leaves {
        rules.push(Rule::Not(Box::new(a.clone())));
        rules.push(Rule::Compare(Box::new(a.clone()), Cmp::Eq, 1));
        for b in &leaves {
            rules.push(Rule::All(vec![a.clone(), b.clone()]));
            rules.push(Rule::Any(vec![Rule::Not(Box::new(a.clone())), b.clone()]));
        }
    }
    rules.extend([Rule::All(vec![]), Rule::Any(vec![])]);
    rules.iter().for_each(check);
    // The quantities' kinds as the old lists had them.
    for (_, q) in Quantity::NAMES {
        assert_eq!(q.of_situation(), old_q_situation(q), "{q:?}");
        assert_eq!(q.after_scoring(), old_q_after(q), "{q:?}");
    }
    // An index past a mask's bits is noted.
    assert!(Rule::Triplets(64).reads().far_set);
    assert_eq!(Reads::default(), Rule::Always.reads());
}
