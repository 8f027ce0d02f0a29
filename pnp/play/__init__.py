"""Playing games: sample transcripts, simulations, the rulebooks' worked examples."""
