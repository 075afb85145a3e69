"""Loading and unloading modules on the device. Screens, the session and the
app all shed code they no longer need; this is the one place that knows how,
so no screen has to import the app (which imports the screens)."""

import sys

# Modules a game screen does not need: unloaded when a game opens. The
# Moonstar variants' tables go too: the options menu loads them, and the
# game loads them again only for a moment (Game 12's per-round choice);
# and so do the settings' checks the settings menu loaded.
# (Each list is one string, split when used: a string constant of over 10
# characters is an object on the heap for as long as its module is
# loaded, 16 bytes on a 32-bit board, and this module always is.)
MENU_MODULES = ("screens.home screens.newgame screens.settings screens.games screens.timer screens.ms_options "
                "shared_rules.moonstar_opts device_settings")
# Modules only a game screen needs: unloaded when Home opens.
GAME_MODULES = ("screens.play screens.g_moonstar screens.g_stm screens.g_moon screens.g_moons screens.gcommon "
                "screens.standings screens.banner screens.gmenu screens.ms_best screens.ms_act screens.ms_more "
                "screens.ms_points screens.ms_solve screens.ms_sit screens.ms_ring screens.ms_roll screens.ms_result "
                "screens.ms_check "
                "shared_rules.solver shared_rules.solver_piles shared_rules.solver_first shared_rules.solver_pairs "
                "shared_rules.solver_tables")


def drop(names):
    """Unload modules, so that their code is freed as soon as nothing else
    refers to it (the heap is the device's scarcest resource; a module's
    names, its qstrs, stay interned for ever, its bytecode does not).
    Only call this for modules no live object still uses: importing one
    again while an old copy is alive would hold two copies. `names`: a
    sequence of dotted names, or one string of them separated by spaces."""
    mods = sys.modules
    if type(names) is str:
        names = names.split()
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
