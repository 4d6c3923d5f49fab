//! One module per game, and `GameKind`: the one list of games the crate knows. A game joins
//! with its module and one arm in each `match` below; the compiler finds every place that must
//! handle it, and an unknown name is an error, never a default.

pub mod etalage;
pub mod one_foundation;
pub mod quick_and_easy;
pub mod sir_tommy;
pub mod stapelen;
pub mod the_game;
pub mod twaalven;

use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    Twaalven,
    Stapelen,
    AllInARow,
    BlackHole,
    TheGame,
    SirTommy,
    Etalage,
    QuickAndEasy,
}

impl GameKind {
    /// Every game, in the order `winnable games` lists them.
    pub const ALL: [GameKind; 8] = [
        GameKind::Twaalven,
        GameKind::Stapelen,
        GameKind::AllInARow,
        GameKind::BlackHole,
        GameKind::TheGame,
        GameKind::SirTommy,
        GameKind::Etalage,
        GameKind::QuickAndEasy,
    ];

    /// The command-line name, as Python's registry knows the game.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Twaalven => "twaalven",
            GameKind::Stapelen => "stapelen",
            GameKind::AllInARow => "all-in-a-row",
            GameKind::BlackHole => "black-hole",
            GameKind::TheGame => "the-game",
            GameKind::SirTommy => "sir-tommy",
            GameKind::Etalage => "etalage",
            GameKind::QuickAndEasy => "quick-and-easy",
        }
    }

    /// The seeded deal as lists of card ids: a tableau's columns (bottom card first), or
    /// Sir Tommy's stock as one list (top card first). The Game's deal depends on the number
    /// of players and is dealt from `shuffled` on the Python side.
    pub fn deal(self, seed: u64) -> Result<Vec<Vec<u8>>, String> {
        match self {
            GameKind::Twaalven => Ok(twaalven::deal(seed)),
            GameKind::Stapelen => Ok(stapelen::deal(seed)),
            GameKind::AllInARow => Ok(one_foundation::all_in_a_row_deal(seed)),
            GameKind::BlackHole => Ok(one_foundation::black_hole_deal(seed)),
            GameKind::SirTommy => Ok(vec![sir_tommy::deal(seed)]),
            GameKind::TheGame | GameKind::Etalage | GameKind::QuickAndEasy => {
                Err(format!("{self}'s deal depends on the players; deal it from `shuffled`"))
            }
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        GameKind::ALL.into_iter().find(|kind| kind.name() == name).ok_or_else(|| {
            let known: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
            format!("unknown game {name:?}; known games: {}", known.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn every_name_parses_back_and_unknown_names_are_errors() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        }
        assert!("blackhole".parse::<GameKind>().unwrap_err().contains("unknown game \"blackhole\""));
    }
}
