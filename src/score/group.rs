//! The groups of an arrangement, where the winning tile sits in one, and how an
//! arrangement is written.

use crate::hand::MeldKind;
use crate::inline::Inline;
use crate::tiles::{self, Tile, GREEN, RED, WHITE};

/// The shape of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Shape {
    Pair,
    Chow,
    Pung,
    /// A declared kong (four tiles; an undeclared four of a kind is a pung and a tile).
    Kong,
    /// 中发白 played as a set (Tangshan): one each of the three dragons, real tiles.
    DragonSet,
    /// One tile of a form without structure (十三幺's singles, 将将胡, a dealt hand).
    Single,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Pair => "pair",
            Shape::Chow => "chow",
            Shape::Pung => "pung",
            Shape::Kong => "kong",
            Shape::DragonSet => "dragon_set",
            Shape::Single => "single",
        }
    }

    /// Tiles in a group of this shape.
    pub const fn tiles(self) -> usize {
        match self {
            Shape::Single => 1,
            Shape::Pair => 2,
            Shape::Kong => 4,
            _ => 3,
        }
    }

    pub const fn is_triplet(self) -> bool {
        matches!(self, Shape::Pung | Shape::Kong)
    }
}

/// One group: its shape, its lowest kind, which of its tiles are wilds, and the declared
/// meld it is, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    pub shape: Shape,
    /// The kind of a pair, pung or kong; a chow's lowest kind. Unused for a dragon set.
    pub tile: Tile,
    /// Bit i set when the group's i-th tile (in [`Group::kind_at`] order) is a wild.
    pub wilds: u8,
    pub meld: Option<MeldKind>,
}

impl Group {
    pub const fn new(shape: Shape, tile: Tile, wilds: u8) -> Group {
        Group { shape, tile, wilds, meld: None }
    }

    /// The kind the i-th tile stands for.
    #[inline]
    pub fn kind_at(&self, i: usize) -> Tile {
        match self.shape {
            Shape::Chow => self.tile + i as Tile,
            Shape::DragonSet => [WHITE, GREEN, RED][i.min(2)],
            _ => self.tile,
        }
    }

    pub fn len(&self) -> usize {
        self.shape.tiles()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether every tile is a wild (a group that could have been any kind).
    pub fn is_free(&self) -> bool {
        self.wilds.count_ones() as usize == self.len()
    }

    pub fn concealed(&self) -> bool {
        matches!(self.meld, None | Some(MeldKind::ConcealedKong))
    }

    /// The kinds the group's tiles stand for.
    pub fn kinds(&self) -> impl Iterator<Item = Tile> + '_ {
        (0..self.len()).map(|i| self.kind_at(i))
    }

    /// The kinds its wilds stand for.
    pub fn wild_kinds(&self) -> impl Iterator<Item = Tile> + '_ {
        (0..self.len()).filter(|&i| self.wilds >> i & 1 == 1).map(|i| self.kind_at(i))
    }
}

/// A placeholder for the unused places of a [`Groups`] list.
pub const NO_GROUP: Group = Group::new(Shape::Single, 0, 0);

/// Most groups an arrangement has: seventeen singles (a 16-tile form without structure).
pub const MAX_GROUPS: usize = 18;

pub type Groups = Inline<Group, MAX_GROUPS>;

/// Where the winning tile sits in its group: the wait it completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 单钓: it completes a pair, or is a single of a form without structure.
    Single,
    /// 坎张 / 卡张: the middle of a chow.
    Closed,
    /// 边张: the 3 of 123 or the 7 of 789.
    Edge,
    /// Either end of an open chow (两面).
    Open,
    /// It completes a pung (双碰).
    Pung,
    /// It completes a 中发白 set.
    Set,
}

impl Role {
    pub const ALL: [Role; 6] = [Role::Single, Role::Closed, Role::Edge, Role::Open, Role::Pung, Role::Set];

    pub fn name(self) -> &'static str {
        match self {
            Role::Single => "single",
            Role::Closed => "closed",
            Role::Edge => "edge",
            Role::Open => "open",
            Role::Pung => "pung",
            Role::Set => "set",
        }
    }

    /// The role of the i-th tile of `g`.
    pub fn of(g: &Group, i: usize) -> Role {
        match g.shape {
            Shape::Pair | Shape::Single => Role::Single,
            Shape::Pung | Shape::Kong => Role::Pung,
            Shape::DragonSet => Role::Set,
            Shape::Chow => {
                let start = g.tile % 9;
                match i {
                    1 => Role::Closed,
                    2 if start == 0 => Role::Edge,
                    0 if start == 6 => Role::Edge,
                    _ => Role::Open,
                }
            }
        }
    }
}

/// The winning tile's place: its group, its position there, and the kind it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub group: u8,
    pub role: Role,
    pub kind: Tile,
}

/// Writes kinds (in kind order) in compact notation, a suit letter after each run.
fn write_kinds(kinds: impl Iterator<Item = Tile>, out: &mut String) {
    let mut suit = None;
    for t in kinds {
        let s = tiles::suit(t);
        if suit.is_some_and(|x| x != s) {
            out.push(tiles::SUIT_LETTERS[suit.unwrap_or(0) as usize]);
        }
        suit = Some(s);
        out.push(char::from(b'0' + tiles::rank(t)));
    }
    if let Some(s) = suit {
        out.push(tiles::SUIT_LETTERS[s as usize]);
    }
}

fn write_name(t: Tile, out: &mut String) {
    out.push(char::from(b'0' + tiles::rank(t)));
    out.push(tiles::SUIT_LETTERS[tiles::suit(t) as usize]);
}

/// Writes groups in compact notation, separated by spaces: declared melds in `[..]`
/// (`{..}` a concealed kong), and the kinds the wilds of a group stand for after it:
/// `123m [555p] {7777s} 3s3s(wild 3s)`.
pub fn write_groups(groups: &[Group], out: &mut String) {
    for (n, g) in groups.iter().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        let (open, close) = match g.meld {
            None => ("", ""),
            Some(MeldKind::ConcealedKong) => ("{", "}"),
            Some(_) => ("[", "]"),
        };
        out.push_str(open);
        write_kinds(g.kinds(), out);
        out.push_str(close);
        if g.wilds != 0 {
            out.push_str("(wild");
            for k in g.wild_kinds() {
                out.push(' ');
                write_name(k, out);
            }
            out.push(')');
        }
    }
}

/// Merges the singles (and the pair) of a form without structure into one run of
/// tiles, as the form is written: `19m19p19s12345677z`.
pub fn write_loose(groups: &[Group], out: &mut String) {
    let mut kinds: Vec<Tile> = groups.iter().flat_map(|g| g.kinds()).collect();
    kinds.sort_unstable();
    write_kinds(kinds.into_iter(), out);
    let mut wild: Vec<Tile> = groups.iter().flat_map(|g| g.wild_kinds()).collect();
    if !wild.is_empty() {
        wild.sort_unstable();
        out.push_str("(wild");
        for k in wild {
            out.push(' ');
            write_name(k, out);
        }
        out.push(')');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_of_chow_places() {
        let low = Group::new(Shape::Chow, 0, 0); // 123m
        assert_eq!([0, 1, 2].map(|i| Role::of(&low, i)), [Role::Open, Role::Closed, Role::Edge]);
        let high = Group::new(Shape::Chow, 6, 0); // 789m
        assert_eq!([0, 1, 2].map(|i| Role::of(&high, i)), [Role::Edge, Role::Closed, Role::Open]);
        let mid = Group::new(Shape::Chow, 12, 0); // 456p
        assert_eq!(Role::of(&mid, 0), Role::Open);
    }

    #[test]
    fn groups_are_written_with_their_wilds() {
        let mut s = String::new();
        let kong = Group { meld: Some(MeldKind::ConcealedKong), ..Group::new(Shape::Kong, 33, 0) };
        write_groups(&[Group::new(Shape::Chow, 0, 0b010), kong, Group::new(Shape::DragonSet, 0, 0)], &mut s);
        assert_eq!(s, "123m(wild 2m) {7777z} 567z");
    }
}
