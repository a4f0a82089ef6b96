"""The shipped weights of the `learned` agent, one .npz per game (eterna.agents.learned)."""
