"""Raid orders (rules spec §11, §12.2, R14.4, R18.4, R21.3, AMBIG-8, AMBIG-9, AMBIG-21;
DECISIONS D-24, D-25).

Each scenario starts at the Action phase's raid step. A Stark March in Winterfell (resolved
after every raid) holds the game still, so that what the raids did can be read at that March.
"""

from engine_helpers import area, at, build, kind, option_areas, orders, power, who

from got_env.engine import DONE, DecisionKind, apply

HALT_UNITS = {"winterfell": "F"}
HALT_ORDERS = {"winterfell": "march-0"}


def raids(units, orders_, **spec):
    """6 players at the raid step; Stark also gets the halting March in Winterfell."""
    units = {h: dict(u) for h, u in units.items()}
    units.setdefault("stark", {}).update(HALT_UNITS)
    return build(start="raids", units=units, orders={**orders_, **HALT_ORDERS}, **spec)


def at_halt(state):
    """The raids are over: the game waits on Stark's March in Winterfell."""
    return (kind(state), who(state), state.pending.context.get("area")) == (
        DecisionKind.MARCH_MOVE, "stark", area(state, "winterfell"))


# Lannister raids from Lannisport (land). Around it: Stark Support in Riverrun (land), Baratheon
# CP in Stoney Sept (land), Tyrell Defense in Searoad Marches (land), Greyjoy CP on a ship in The
# Golden Sound (sea).
AROUND_LANNISPORT = {
    "lannister": {"lannisport": "F"},
    "stark": {"riverrun": "F"},
    "baratheon": {"stoney-sept": "F"},
    "tyrell": {"searoad-marches": "F"},
    "greyjoy": {"the-golden-sound": "S"},
}
AROUND_ORDERS = {"riverrun": "support-0a", "stoney-sept": "consolidate-power-a",
                 "searoad-marches": "defense-1a", "the-golden-sound": "consolidate-power-a"}


def test_r12_2_1_land_raid_targets_adjacent_enemy_support_raid_cp_on_land():
    """R11, R12.2.1, R12.2.5 (AMBIG-8): a normal Raid on land may remove an adjacent enemy
    Support, Raid or CP order on land; not a Defense, not an order at sea; or be declined."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TARGET, "lannister")
    assert option_areas(s) == ["riverrun", "stoney-sept"]
    assert DONE in s.pending.options


def test_r12_2_2_special_raid_may_also_remove_defense():
    """R12.2.2: Raid★ may also remove an adjacent enemy Defense order."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-special", **AROUND_ORDERS})
    assert option_areas(s) == ["riverrun", "searoad-marches", "stoney-sept"]
    before = power(s)
    apply(s, at(s, "searoad-marches"))
    assert at_halt(s)
    assert "searoad-marches" not in orders(s) and "lannisport" not in orders(s)
    assert power(s) == before  # only a CP is pillaged


def test_r12_2_2_special_raid_removes_special_defense():
    """R11, R12.2.2: the Defense★ +2 is a Defense order too."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-special", **AROUND_ORDERS,
                                  "searoad-marches": "defense-special"})
    assert "searoad-marches" in option_areas(s)


def test_r12_2_1_raid_removes_both_orders():
    """R12.2.1: the raided order and the Raid are both removed; nothing else changes (a Support
    gives no power)."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS})
    before = power(s)
    apply(s, at(s, "riverrun"))
    assert at_halt(s)
    assert orders(s) == {"stoney-sept": "consolidate-power-a", "searoad-marches": "defense-1a",
                         "the-golden-sound": "consolidate-power-a", "winterfell": "march-0"}
    assert power(s) == before


def test_r12_2_3_pillage_cp():
    """R12.2.3: raiding a CP order: the raider gains 1 power, the victim discards 1."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS},
              power={"lannister": 4, "baratheon": 3})
    apply(s, at(s, "stoney-sept"))
    assert at_halt(s)
    assert power(s)["lannister"] == 5 and power(s)["baratheon"] == 2
    assert "stoney-sept" not in orders(s)


def test_r12_2_3_pillage_special_cp():
    """R11, R12.2.3: a CP★ is a Consolidate Power order too: it is pillaged."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS,
                                  "stoney-sept": "consolidate-power-special"},
              power={"lannister": 4, "baratheon": 3})
    apply(s, at(s, "stoney-sept"))
    assert power(s)["lannister"] == 5 and power(s)["baratheon"] == 2


def test_r12_2_3_pillage_victim_without_power():
    """R12.2.3: the raider gains 1 even if the victim has no power; the victim stays at 0."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS},
              power={"lannister": 4, "baratheon": 0})
    apply(s, at(s, "stoney-sept"))
    assert power(s)["lannister"] == 5 and power(s)["baratheon"] == 0


def test_r12_2_3_pillage_gain_limited_by_the_pool():
    """R12.2.3, R2.3.3 (AMBIG-21): a raider whose 20 tokens are all in use gains nothing; the
    victim still discards 1."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS},
              power={"lannister": 20, "baratheon": 3})
    apply(s, at(s, "stoney-sept"))
    assert power(s)["lannister"] == 20 and power(s)["baratheon"] == 2


def test_r12_2_4_declining_removes_only_the_raid():
    """R12.2.4: the owner may decline although targets exist: the Raid goes, targets stay."""
    s = raids(AROUND_LANNISPORT, {"lannisport": "raid-a", **AROUND_ORDERS})
    before = power(s)
    apply(s, DONE)
    assert at_halt(s)
    assert orders(s) == {**AROUND_ORDERS, "winterfell": "march-0"}
    assert power(s) == before


def test_r12_2_4_no_target_removes_the_raid_without_asking():
    """R12.2.4: with no legal target the Raid is removed with no effect, and no D-25 is asked
    (its only option is played)."""
    s = raids({"lannister": {"lannisport": "F"}, "baratheon": {"stoney-sept": "F"}},
              {"lannisport": "raid-a", "stoney-sept": "defense-1a"})
    assert at_halt(s)
    assert orders(s) == {"stoney-sept": "defense-1a", "winterfell": "march-0"}


def test_r12_2_6_own_orders_are_never_targets():
    """R12.2.6 (AMBIG-9): a house cannot raid its own orders."""
    s = raids({"lannister": {"lannisport": "F", "stoney-sept": "F", "riverrun": "F"},
               "tyrell": {"searoad-marches": "F"}},
              {"lannisport": "raid-special", "stoney-sept": "consolidate-power-a",
               "riverrun": "support-0a", "searoad-marches": "support-0a"})
    assert option_areas(s) == ["searoad-marches"]


def test_r12_2_1_march_orders_cannot_be_raided():
    """R11, R12.2.1-R12.2.2: not even a Raid★ removes a March order."""
    s = raids({"lannister": {"lannisport": "F"}, "baratheon": {"stoney-sept": "F"},
               "tyrell": {"searoad-marches": "F"}},
              {"lannisport": "raid-special", "stoney-sept": "march-special",
               "searoad-marches": "raid-b"})
    assert option_areas(s) == ["searoad-marches"]


def test_r12_2_5_sea_raid_targets_land_sea_and_port():
    """R12.2.5, R18.4 (AMBIG-8), rulebook example: a Raid in West Summer Sea may remove a CP in
    Highgarden (land), an order on ships in an adjacent sea area."""
    s = raids({"greyjoy": {"west-summer-sea": "S"},
               "tyrell": {"highgarden": "F", "redwyne-straits": "S"},
               "martell": {"east-summer-sea": "S"},
               "lannister": {"searoad-marches": "F"}},
              {"west-summer-sea": "raid-a", "highgarden": "consolidate-power-a",
               "redwyne-straits": "support-0a", "east-summer-sea": "support-special",
               "searoad-marches": "defense-1a"})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TARGET, "greyjoy")
    assert option_areas(s) == ["east-summer-sea", "highgarden", "redwyne-straits"]
    apply(s, at(s, "highgarden"))
    assert power(s)["greyjoy"] == 6 and power(s)["tyrell"] == 4


def test_r18_4_sea_raid_may_target_a_port():
    """R12.2.5, R18.4: ships in the adjacent sea area may raid the port (a CP there is
    pillaged like any CP)."""
    s = raids({"tyrell": {"east-summer-sea": "S"}, "martell": {"port-of-sunspear": "S"}},
              {"east-summer-sea": "raid-a", "port-of-sunspear": "consolidate-power-a"})
    assert option_areas(s) == ["port-of-sunspear"]
    apply(s, at(s, "port-of-sunspear"))
    assert power(s)["tyrell"] == 6 and power(s)["martell"] == 4


def test_r18_4_port_raid_targets_only_its_sea_area():
    """R18.4, rules example (§18): Martell ships in the Port of Sunspear raid a Tyrell Support
    in the East Summer Sea; a port never raids land."""
    s = raids({"martell": {"port-of-sunspear": "S"}, "tyrell": {"east-summer-sea": "S"},
               "greyjoy": {"pyke": "F", "sea-of-dorne": "S"}},
              {"port-of-sunspear": "raid-special", "east-summer-sea": "support-0a",
               "sea-of-dorne": "support-0a", "pyke": "support-0a"})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TARGET, "martell")
    assert option_areas(s) == ["east-summer-sea"]


def test_r18_4_port_raid_never_targets_its_land_area():
    """R18.4: ships in a port may not raid land, not even their port's land area (here ships
    left in the Port of Pyke while Lannister holds Pyke, AMBIG-15)."""
    s = raids({"greyjoy": {"port-of-pyke": "S"}, "lannister": {"pyke": "F"}},
              {"port-of-pyke": "raid-special", "pyke": "consolidate-power-a"})
    assert at_halt(s)
    assert orders(s) == {"pyke": "consolidate-power-a", "winterfell": "march-0"}


def test_r18_4_land_raid_never_targets_a_port():
    """R18.4, R12.2.5: a port can never be raided from land (here Lannister in Pyke next to
    Greyjoy ships left in the Port of Pyke)."""
    s = raids({"greyjoy": {"port-of-pyke": "S"}, "lannister": {"pyke": "F"}},
              {"pyke": "raid-special", "port-of-pyke": "consolidate-power-a"})
    assert at_halt(s)
    assert orders(s) == {"port-of-pyke": "consolidate-power-a", "winterfell": "march-0"}


def test_r14_4_ship_transport_gives_no_raid_adjacency():
    """R14.4: Lannister ships in The Golden Sound and Sunset Sea could carry an army to Flint's
    Finger, but a raid from Lannisport still reaches only adjacent land areas."""
    s = raids({"lannister": {"lannisport": "F", "the-golden-sound": "S", "sunset-sea": "S"},
               "stark": {"flints-finger": "F"}, "baratheon": {"stoney-sept": "F"}},
              {"lannisport": "raid-a", "flints-finger": "consolidate-power-a",
               "stoney-sept": "support-0a", "the-golden-sound": "march-0",
               "sunset-sea": "march-0"})
    assert option_areas(s) == ["stoney-sept"]


def test_r21_3_special_raid_keeps_working_after_kings_court_changes():
    """R21.3: a special order already on the board keeps its power although the house's King's
    Court position (Greyjoy 6 of 6: no star) no longer allows it; Raid★ still hits a Defense."""
    s = raids({"greyjoy": {"ironmans-bay": "S"}, "stark": {"riverrun": "F"}},
              {"ironmans-bay": "raid-special", "riverrun": "defense-special"})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TARGET, "greyjoy")
    assert option_areas(s) == ["riverrun"]
    apply(s, at(s, "riverrun"))
    assert orders(s) == {"winterfell": "march-0"}


def test_d24_house_chooses_which_raid_to_resolve():
    """R12.1.1, D-24, R12.2.4: a house with several Raids picks which one resolves first; with
    no other raider it resolves the next one right after; a Raid left without target goes
    without a question."""
    s = raids({"lannister": {"lannisport": "F", "stoney-sept": "F"},
               "baratheon": {"blackwater": "F"}, "tyrell": {"searoad-marches": "F"}},
              {"lannisport": "raid-a", "stoney-sept": "raid-b", "blackwater": "support-0a",
               "searoad-marches": "support-0a"})
    assert (kind(s), who(s)) == (DecisionKind.RAID_TO_RESOLVE, "lannister")
    assert option_areas(s) == ["lannisport", "stoney-sept"]
    apply(s, at(s, "stoney-sept"))
    assert (kind(s), s.pending.context["area"]) == (DecisionKind.RAID_TARGET,
                                                    area(s, "stoney-sept"))
    assert option_areas(s) == ["blackwater", "searoad-marches"]
    apply(s, at(s, "searoad-marches"))
    # Lannisport's raid now has no target (Searoad Marches is empty of orders, Stoney Sept is
    # Lannister's own): it is removed without a question.
    assert at_halt(s)
    assert orders(s) == {"blackwater": "support-0a", "winterfell": "march-0"}
