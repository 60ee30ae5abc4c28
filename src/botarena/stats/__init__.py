"""Statistics for deciding between bots: sequential tests, Elo intervals, settled rankings."""
