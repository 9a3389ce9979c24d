//! The facts of a win (和牌): the winning tile, how it came, winds, flowers, and the
//! checks that reject contradictory flags.

use crate::error::{HandError, Result};
use crate::hand::Hand;
use crate::tiles::{self, Tile};

/// How a hand was won. Winds are 0..4 = east, south, west, north.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situation {
    /// The winning tile (和牌张), not among the hand's concealed tiles.
    pub win: Tile,
    /// 自摸: drawn by the winner (else taken from a discard).
    pub self_drawn: bool,
    /// 门风: the winner's seat wind.
    pub seat_wind: u8,
    /// 圈风: the prevalent (round) wind.
    pub round_wind: u8,
    /// Flowers (花牌) held, 0..=8.
    pub flowers: u8,
    /// 和绝张: the winning tile is the last of its kind (the other three are visible).
    pub last_of_kind: bool,
    /// The last tile of the wall: 妙手回春 when self-drawn, 海底捞月 on a discard.
    pub wall_last: bool,
    /// 杠上开花: won on the replacement tile drawn after a kong.
    pub kong_replacement: bool,
    /// 抢杠和: won on the tile another player adds to a melded pung.
    pub robbing_kong: bool,
}

/// Rulings that differ between sources; the defaults follow the seed's 2006 list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Score one concealed plus one melded kong as ChineseOfficialMahjongHelper's 明暗杠
    /// (5 points) instead of 明杠 + 暗杠 (3). See docs/mcr-differences.md.
    pub concealed_and_melded_kong: bool,
}

/// A wind letter `E`, `S`, `W` or `N` as 0..4.
pub fn wind(text: &str) -> Result<u8> {
    match text {
        "E" | "e" | "1z" => Ok(0),
        "S" | "s" | "2z" => Ok(1),
        "W" | "w" | "3z" => Ok(2),
        "N" | "n" | "4z" => Ok(3),
        other => Err(HandError::invalid(format!("wind must be E, S, W or N, not {}", crate::error::quote(other)))),
    }
}

impl Situation {
    /// Checks the flags against each other and against the hand (13 tiles, melds
    /// counting 3), and returns the situation with flowers written in the hand added.
    /// `last_of_kind` is set when the hand's own melds show the other three copies:
    /// the winning tile is then the last of its kind whatever the caller says.
    pub fn checked(mut self, hand: &Hand) -> Result<Situation> {
        let bad = |m: &str| Err(HandError::invalid(m.to_string()));
        // A contradiction named by the key its message speaks of.
        let refuse = |key: &str, m: &str| Err(HandError::invalid(m.to_string()).for_key(key));
        if self.win as usize >= tiles::KINDS {
            return bad("the winning tile is not a tile kind");
        }
        if self.seat_wind > 3 || self.round_wind > 3 {
            return bad("winds are 0..3 (east, south, west, north)");
        }
        let written = hand.flowers.count_ones() as u8;
        if written > 0 && self.flowers > 0 && written != self.flowers {
            return refuse("flowers", "flowers are given twice (in the hand and as a count) and disagree");
        }
        self.flowers = self.flowers.max(written);
        if self.flowers > 8 {
            return refuse("flowers", "there are only 8 flowers");
        }
        let melded = hand.melded();
        let w = self.win as usize;
        let held = |t: usize| hand.concealed[t] + melded[t];
        if held(w) >= 4 {
            return Err(HandError::new(crate::error::ErrorKind::FifthCopy(tiles::name(self.win))));
        }
        if self.robbing_kong && self.self_drawn {
            return refuse("robbing_kong", "robbing_kong wins on another player's tile, so it cannot be self_drawn");
        }
        if self.robbing_kong && self.kong_replacement {
            return refuse("robbing_kong", "robbing_kong and kong_replacement cannot both hold");
        }
        if self.robbing_kong && self.wall_last {
            return refuse(
                "robbing_kong",
                "robbing_kong with wall_last: no kong can be declared on the last tile of the wall",
            );
        }
        if self.robbing_kong && held(w) > 0 {
            return refuse("robbing_kong", "robbing_kong: the other three copies of the winning tile are in the robbed kong, yet the hand holds one");
        }
        if self.kong_replacement && !self.self_drawn {
            return refuse(
                "kong_replacement",
                "kong_replacement: the replacement tile is drawn, so the win must be self_drawn",
            );
        }
        if self.kong_replacement && !hand.melds.iter().any(|m| m.kind.is_kong()) {
            return refuse("kong_replacement", "kong_replacement needs a kong among the hand's melds");
        }
        if self.last_of_kind && hand.concealed[w] > 0 {
            return refuse("last_of_kind", "last_of_kind: the hand holds another copy of the winning tile concealed, so it is not the last of its kind");
        }
        if melded[w] == 3 {
            self.last_of_kind = true;
        }
        Ok(self)
    }
}

/// Reads the situation part of a ChineseOfficialMahjongHelper string (after the first
/// `|`): prevalent wind, seat wind, four 0/1 flags (self-drawn, last of its kind, last
/// tile of the wall, kong involved: 杠上开花 when self-drawn, else 抢杠和), then
/// optionally `|` and the flowers as a digit or one letter `a`-`h` a flower.
pub fn apply_comh(rest: &str, s: &mut Situation) -> Result<()> {
    let mut parts = rest.split('|');
    let flags: Vec<char> = parts.next().unwrap_or("").trim().chars().collect();
    if flags.len() != 6 || !flags[2..].iter().all(|c| matches!(c, '0' | '1')) {
        return Err(HandError::invalid(format!(
            "situation {}: expected two winds and four 0/1 flags, e.g. EE1000",
            crate::error::quote(rest)
        )));
    }
    s.round_wind = wind(&flags[0].to_string())?;
    s.seat_wind = wind(&flags[1].to_string())?;
    s.self_drawn = flags[2] == '1';
    s.last_of_kind = flags[3] == '1';
    s.wall_last = flags[4] == '1';
    let kong = flags[5] == '1';
    s.kong_replacement = kong && s.self_drawn;
    s.robbing_kong = kong && !s.self_drawn;
    if let Some(f) = parts.next() {
        let f = f.trim();
        let shown: String = f.chars().take(20).collect();
        s.flowers = if f.is_empty() {
            0
        } else if let Ok(n) = f.parse::<u8>() {
            if n > 8 {
                return Err(HandError::invalid(format!("flowers {}: at most 8", crate::error::quote(&shown))));
            }
            n
        } else if f.chars().all(|c| ('a'..='h').contains(&c)) {
            // Each letter a flower, each flower in the set once.
            let mut held = 0u8;
            for c in f.chars() {
                let bit = 1u8 << (c as u8 - b'a');
                if held & bit != 0 {
                    return Err(HandError::invalid(format!(
                        "flowers {}: the flower {c} is given twice",
                        crate::error::quote(&shown)
                    )));
                }
                held |= bit;
            }
            held.count_ones() as u8
        } else {
            return Err(HandError::invalid(format!("flowers {}: a digit or letters a-h", crate::error::quote(&shown))));
        };
    }
    if parts.next().is_some() {
        return Err(HandError::invalid(format!("situation {}: too many '|' parts", crate::error::quote(rest))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse, Format};

    fn hand(s: &str) -> Hand {
        parse(s, Format::Compact).unwrap().hand
    }

    #[test]
    fn contradictions_are_errors() {
        let h = hand("123m456p789s1122z");
        let base = Situation { win: 27, ..Default::default() };
        assert!(Situation { self_drawn: true, robbing_kong: true, ..base }.checked(&h).is_err());
        assert!(Situation { kong_replacement: true, self_drawn: true, ..base }.checked(&h).is_err());
        assert!(Situation { kong_replacement: true, ..base }.checked(&h).is_err());
        assert!(Situation { robbing_kong: true, ..base }.checked(&h).is_err());
        assert!(Situation { last_of_kind: true, ..base }.checked(&h).is_err());
        assert!(Situation { flowers: 9, ..base }.checked(&h).is_err());
        assert!(Situation { win: 29, robbing_kong: true, ..base }.checked(&h).is_ok());
    }

    #[test]
    fn own_melds_make_the_last_of_kind() {
        let h = hand("123m456p78s11z[999s]");
        let s = Situation { win: 26, ..Default::default() }.checked(&h).unwrap();
        assert!(s.last_of_kind);
    }

    #[test]
    fn comh_situation() {
        let mut s = Situation::default();
        apply_comh("SN1011|8", &mut s).unwrap();
        assert_eq!((s.round_wind, s.seat_wind, s.flowers), (1, 3, 8));
        assert!(s.self_drawn && s.wall_last && s.kong_replacement && !s.robbing_kong);
        assert!(apply_comh("EE10", &mut s).is_err());
        assert!(apply_comh("EE0000|xyz", &mut s).is_err());
        // Flower letters name flowers, each once; a count is at most 8.
        apply_comh("EE0000|adh", &mut s).unwrap();
        assert_eq!(s.flowers, 3);
        assert!(apply_comh("EE0000|aa", &mut s).is_err());
        assert!(apply_comh(&format!("EE0000|{}", "a".repeat(264)), &mut s).is_err());
        assert!(apply_comh("EE0000|9", &mut s).is_err());
    }

    #[test]
    fn winds() {
        assert_eq!(wind("N").unwrap(), 3);
        assert!(wind("X").is_err());
    }
}
