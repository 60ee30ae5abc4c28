"""The game-independent core: rules interface, protocols, players, the referee loop, replays."""
