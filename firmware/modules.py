"""Loading and unloading modules on the device. Screens, the session and the
app all shed code they no longer need; this is the one place that knows how,
so no screen has to import the app (which imports the screens)."""

import sys

# Modules a game screen does not need: unloaded when a game opens. The
# Moonstar variants' tables go too: the options menu loads them, and the
# game loads them again only for a moment (Game 12's per-round choice);
# and so do the settings' checks the settings menu loaded.
MENU_MODULES = ("screens.home", "screens.newgame", "screens.settings", "screens.games", "screens.timer",
                "screens.ms_options", "shared_rules.moonstar_opts", "device_settings")
# Modules only a game screen needs: unloaded when Home opens.
GAME_MODULES = ("screens.play", "screens.g_moonstar", "screens.g_stm", "screens.g_moon", "screens.g_moons",
                "screens.gcommon", "screens.standings", "screens.banner", "screens.gmenu", "screens.ms_best", "screens.ms_act", "screens.ms_more", "screens.ms_points",
                "screens.ms_solve", "screens.ms_sit", "screens.ms_ring", "screens.ms_roll", "shared_rules.solver",
                "shared_rules.solver_piles")


def drop(names):
    """Unload modules, so that their code is freed as soon as nothing else
    refers to it (the heap is the device's scarcest resource; a module's
    names, its qstrs, stay interned for ever, its bytecode does not).
    Only call this for modules no live object still uses: importing one
    again while an old copy is alive would hold two copies."""
    mods = sys.modules
    for name in names:
        if name in mods:
            del mods[name]
            i = name.rfind(".")
            parent = mods.get(name[:i]) if i > 0 else None
            if parent is not None and hasattr(parent, name[i + 1 :]):
                delattr(parent, name[i + 1 :])


def call(module, name, *args):
    """module.name(*args), with `module` loaded for the call and dropped
    after it: code a game never runs (journal_rare, storage_rare) stays out
    of the heap between calls. A module that a caller further up is
    already running stays loaded (importing it again would load a second
    copy of it)."""
    mods = sys.modules
    loaded = module in mods
    m = __import__(module)
    try:
        return getattr(m, name)(*args)
    finally:
        if not loaded:
            mods.pop(module, None)


def rules_resident(game):
    """The shared_rules modules a game keeps resident: its rules module and
    what that imports at load time (RuleError for an unknown game). Taken
    before the game's Match is made, since making it may load tables only
    a new game needs (Moonstar's variants, moonstar_opts): those, and
    everything the rules import later on first use (a phase's handler,
    legal(), the board tables), are shed after each event (Session.shed)."""
    from shared_rules import get_game

    get_game(game)
    mods = sys.modules
    return [k for k in mods if k.startswith("shared_rules")]
