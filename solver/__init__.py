"""winnable's engine: solve, analyse and explain each game, on the Rust kernels and CP-SAT."""
