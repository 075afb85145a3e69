"""The build's short names (host/shorten.py): a consistent renaming of the
app's own identifiers that nothing can reach by spelling, so the deployed
code behaves as the sources do and interns fewer, shorter names."""

import subprocess
import sys
import textwrap

from moontable import shorten
from moontable.appbuild import deploy_files


def _src(text):
    return textwrap.dedent(text).lstrip()


APP = {
    "geo": _src('''
        """A docstring naming area_of does not stop its renaming."""
        from shared import helper_scale

        _FACTOR = 3


        def area_of(width_px, height_px):
            return helper_scale(width_px * height_px * _FACTOR)


        class Shape:
            kind_name = "shape"

            def describe(self):
                return self.kind_name


        def by_name(obj):
            return getattr(obj, "describe")()


        def sorted_areas(items):
            return sorted(items, key=abs)
    '''),
    "shared": _src('''
        def helper_scale(value_in):
            return value_in * 2


        def unrelated_thing(count_of):
            return count_of + 1
    '''),
    "checksum": _src('''
        try:
            from binascii import crc32 as _fast_crc
        except ImportError:
            _fast_crc = None


        def crc32(data_in):
            return _fast_crc(data_in)
    '''),
    "pkg": "",
    "pkg.leaf": "LEAF_VALUE = 7\n",
    "user": _src('''
        from pkg import leaf
        from geo import area_of, Shape


        def total_area():
            return area_of(2, 3) + leaf.LEAF_VALUE
    '''),
}


def test_names_nothing_reaches_by_spelling_are_renamed_consistently():
    plan = shorten.plan(APP)
    # module-level functions, their parameters, private constants: renamed
    for name in ("area_of", "helper_scale", "unrelated_thing", "width_px", "value_in", "total_area", "by_name"):
        assert name in plan, name
    assert plan["_FACTOR"].startswith("_") and not plan["area_of"].startswith("_")
    # what can be reached by spelling stays: attributes and class members,
    # a string's words, a call's keyword, module names, short names
    for name in ("kind_name", "describe", "LEAF_VALUE", "key", "leaf", "pkg", "geo", "abs", "self", "crc32"):
        assert name not in plan, name
    assert all(len(new) <= 3 for new in plan.values())


def test_modules_that_never_meet_share_short_names():
    plan = shorten.plan(APP)
    # "unrelated_thing" lives in shared alone, "by_name" in geo alone, and
    # neither module sees the other's: they may take the same short name.
    used = {}
    for mod, text in APP.items():
        for old, new in plan.items():
            if old in shorten.Module(text).names:
                assert used.setdefault((mod, new), old) == old, (mod, new, old)
    assert len(set(plan.values())) < len(plan)


def test_renamed_app_runs_as_the_sources_do(tmp_path):
    plan = shorten.plan(APP)
    for mod, text in APP.items():
        path = tmp_path / (mod.replace(".", "/") + ("/__init__.py" if mod == "pkg" else ".py"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(shorten.rename(text, plan))
    code = "import user, geo; print(user.%s(), geo.%s(geo.%s()))" % (plan["total_area"], plan["by_name"], plan["Shape"])
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(2 * 3 * 3 * 2 + 7), "shape"]


def test_rename_keeps_every_line_where_it_was():
    plan = shorten.plan(APP)
    for text in APP.values():
        renamed = shorten.rename(text, plan)
        assert renamed.count("\n") == text.count("\n")
    assert "def %s(" % plan["area_of"] in shorten.rename(APP["geo"], plan)
    assert "self.kind_name" in shorten.rename(APP["geo"], plan)


def test_the_app_plan_leaves_what_the_pc_and_the_libraries_reach():
    plan, app = shorten.for_app(deploy_files("pico"))
    assert "ui.moonstar.game" in app and "adafruit_ssd1306" not in app
    # a class member reached by getattr with a built name, a hook the
    # protocol calls, library methods our adapter provides, module names
    for name in ("_c_hello", "settings", "writeto", "readfrom_into", "session", "store", "ui"):
        assert name not in plan, name
    assert len(plan) > 300
