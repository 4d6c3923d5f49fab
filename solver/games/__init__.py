"""One folder per game: its engine adapter and registry entry (engine.py), its short reasons
why a position is lost (reasons.py) and its CP-SAT model (sat.py), where it has them."""
