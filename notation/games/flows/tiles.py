"""The four Flows tile types: which edges each joins, in every rotation (rules section 3)."""
from __future__ import annotations

#: Partner of each entry direction at rotation 0, per tile type.
PARTNERS0 = ((2, 4, 0, 5, 1, 3), (5, 3, 4, 1, 2, 0), (5, 4, 3, 2, 1, 0), (5, 2, 1, 4, 3, 0))
TILES_PER_TYPE = 10
#: Rotations giving the same connections: period 3 for T0 and T2, 6 for T1, 2 for T3.
PERIOD = (3, 6, 3, 2)


def partners(tile: int, rotation: int) -> tuple[int, ...]:
    """partner[d] of every direction d for a tile at a rotation."""
    base = PARTNERS0[tile]
    return tuple((base[(d - rotation) % 6] + rotation) % 6 for d in range(6))


#: PARTNER[tile][rotation][d]: the edge a tile joins to its edge d.
PARTNER = tuple(tuple(partners(t, r) for r in range(6)) for t in range(4))
#: PAIRS[tile][rotation]: the three edge pairs (d, partner) with d < partner.
PAIRS = tuple(tuple(tuple((d, p[d]) for d in range(6) if d < p[d]) for p in per_tile)
              for per_tile in PARTNER)
