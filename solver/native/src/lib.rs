//! winnable's search kernels, exposed to Python as `solver._native`.
//!
//! - `search`: what every game shares: the memoised DFS over the `Game` trait, the size-capped
//!   tables, the tableau of face-up columns and the seeded shuffle;
//! - `games`: one module per game, and `GameKind`, the one list of games the crate knows;
//! - `py`: the bindings Python calls.

pub mod games;
pub mod py;
pub mod search;
