"""Words and scenes the front ends share (Discord, the terminal): how a table, a hand, a move, a
rule or a replay reads and what its picture shows, from the engine's state and the service's views."""
