"""The command line's manners: --version, `python -m host`, config.toml
(platformdirs' config folder, or $MOONTABLE_CONFIG), shell completion for
bash and zsh, and the user's folders for data and cache. Real processes,
a real database file, a real bash running the completion script."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "db"))
import dbkit  # noqa: E402


def moontable(*argv, tmp, env=None, cwd=None):
    """`python -m host ARGV` with its own home, config, data and cache folders under tmp."""
    e = dict(os.environ)
    e.update({"PYTHONPATH": str(ROOT), "HOME": str(tmp / "home"), "XDG_CONFIG_HOME": str(tmp / "config"),
              "XDG_DATA_HOME": str(tmp / "data"), "XDG_CACHE_HOME": str(tmp / "cache")})
    e.pop("MOONTABLE_CONFIG", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "moontable"] + [str(a) for a in argv], cwd=cwd or tmp, env=e,
                          capture_output=True, text=True, timeout=300)


def firmware_version():
    return re.search(r'^FIRMWARE_VERSION = "(.+)"$', (ROOT / "firmware/config.py").read_text(), re.M).group(1)


def test_version_names_the_package_and_the_firmware(tmp_path):
    from importlib.metadata import version

    r = moontable("--version", tmp=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "moontable %s, firmware %s" % (version("moontable"), firmware_version())


def test_help_names_the_config_file_and_completion(tmp_path):
    r = moontable("--help", tmp=tmp_path, env={"COLUMNS": "1000"})  # argparse would wrap the path at its hyphens
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert str(tmp_path / "config" / "moontable" / "config.toml") in text
    assert "--version" in text and "completion bash|zsh" in text and "completion print a shell completion script" in text


def write_config(tmp, text):
    path = tmp / "config" / "moontable" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_config_database_is_the_default_and_db_wins(tmp_path):
    _m, data = dbkit.moonstar_log(seed=5)
    log = tmp_path / "g.jsonl"
    log.write_bytes(data)
    write_config(tmp_path, 'database = "~/club/games.db"\n')
    (tmp_path / "home" / "club").mkdir(parents=True)
    r = moontable("import", log, tmp=tmp_path)
    assert r.returncode == 0, r.stderr
    club = tmp_path / "home" / "club" / "games.db"
    assert club.exists()
    assert not (tmp_path / "data" / "moontable" / "moontable.db").exists()
    r = moontable("games", "--json", tmp=tmp_path)
    assert [g["game"] for g in json.loads(r.stdout)] == ["moonstar"]
    other = tmp_path / "other.db"
    r = moontable("games", "--json", "--db", other, tmp=tmp_path)  # the option wins over the file
    assert r.returncode == 2 and "no database at %s" % other in r.stderr


def test_config_port_is_the_default_for_flash_and_port_wins(tmp_path):
    write_config(tmp_path, 'port = "%s"\n' % (tmp_path / "no-such-board"))
    r = moontable("flash", "--board", "pico", tmp=tmp_path)
    assert r.returncode == 1 and str(tmp_path / "no-such-board") in r.stderr, r.stderr
    r = moontable("flash", "--board", "pico", "--port", tmp_path / "another", tmp=tmp_path)
    assert r.returncode == 1 and str(tmp_path / "another") in r.stderr and "no-such-board" not in r.stderr


def test_moontable_config_names_another_file(tmp_path):
    other = tmp_path / "elsewhere.toml"
    other.write_text('database = "%s"\n' % (tmp_path / "x.db"))
    _m, data = dbkit.moonstar_log(seed=5)
    (tmp_path / "g.jsonl").write_bytes(data)
    r = moontable("import", tmp_path / "g.jsonl", tmp=tmp_path, env={"MOONTABLE_CONFIG": str(other)})
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "x.db").exists()


@pytest.mark.parametrize("text, says", [
    ('port = "/dev/ttyACM0"\nport = "x"\n', "is not valid TOML"),
    ("port = /dev/ttyACM0\n", "is not valid TOML"),
    ('prot = "/dev/ttyACM0"\n', "unknown setting 'prot' (known: database, location, port)"),
    ("port = 3\n", "port must be the serial port, as text"),
    ('database = ""\n', "database must be a database file's path"),
    ("[database]\npath = 'x'\n", "database must be a database file's path"),
    (b"port = \"\xff\"\n", "is not UTF-8 text"),
])
def test_a_bad_config_stops_the_command_with_one_line_and_touches_nothing(tmp_path, text, says):
    path = tmp_path / "config" / "moontable" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    _m, data = dbkit.moonstar_log(seed=5)
    log = tmp_path / "g.jsonl"
    log.write_bytes(data)
    r = moontable("import", log, tmp=tmp_path)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith("moontable import: config: %s" % path) and says in r.stderr, r.stderr
    assert not (tmp_path / "data").exists()  # no database was made


def test_folders_are_the_users_and_the_mpy_cache_is_not_in_the_package(tmp_path):
    code = ("from moontable import places, mpy, db\n"
            "from moontable.sim import board_link, run\n"
            "mpy.compile_file(places.firmware_dir() / 'sound.py', 'sound.py')\n"
            "print(db.default_path()); print(run.default_flash()); print(mpy.cache_dir()); print(board_link.rom_dir())")
    e = dict(os.environ, PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "d"), XDG_CACHE_HOME=str(tmp_path / "c"))
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=e, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(tmp_path / "d/moontable/moontable.db"), str(tmp_path / "d/moontable/sim-flash"),
                                str(tmp_path / "c/moontable/mpy"), str(tmp_path / "c/moontable/sim-rom")]
    assert len(list((tmp_path / "c/moontable/mpy").glob("*.mpy"))) == 1


def completion(shell, tmp):
    r = moontable("completion", shell, tmp=tmp)
    assert r.returncode == 0, r.stderr
    return r.stdout


def bash_complete(script, words):
    """What bash's completion offers for the command line `words` (the last
    one being completed), with the script sourced into a real bash."""
    line = " ".join(words)
    probe = script + "\n" + (
        "COMP_WORDS=(%s); COMP_CWORD=%d; COMP_LINE=%s; COMP_POINT=${#COMP_LINE}\n"
        "_shtab_moontable; printf '%%s\\n' \"${COMPREPLY[@]}\"\n"
        % (" ".join("'%s'" % w for w in words), len(words) - 1, "'%s'" % line))
    r = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.splitlines() if w]


def test_bash_completes_commands_options_choices_and_paths(tmp_path):
    script = completion("bash", tmp_path)
    assert bash_complete(script, ["moontable", "fl"]) == ["flash"]
    assert set(bash_complete(script, ["moontable", ""])) >= {"flash", "sim", "sync", "report", "completion"}
    assert bash_complete(script, ["moontable", "flash", "--board", ""]) == ["pico", "esp32", "sim"]
    assert bash_complete(script, ["moontable", "export", "--form"]) == ["--format"]
    assert bash_complete(script, ["moontable", "export", "--format", ""]) == ["csv", "json", "bgstats"]
    (tmp_path / "games.db").write_text("")
    os.chdir(tmp_path)
    try:
        assert bash_complete(script, ["moontable", "games", "--db", "gam"]) == ["games.db"]
    finally:
        os.chdir(ROOT)


def test_an_unknown_shell_is_refused(tmp_path):
    r = moontable("completion", "fish", tmp=tmp_path)
    assert r.returncode == 2 and "invalid choice: 'fish'" in r.stderr


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (apt-get install zsh)")
def test_zsh_registers_the_completion_with_the_commands_and_choices(tmp_path):
    script = tmp_path / "_moontable"
    script.write_text(completion("zsh", tmp_path))
    r = subprocess.run(["zsh", "-n", str(script)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # as installed: a file _moontable on $fpath, found by compinit through its #compdef line
    probe = ("fpath=(%s $fpath); autoload -Uz compinit; compinit -u -d %s/zcompdump\n"
             "print -r -- REGISTERED $_comps[moontable]\n"
             "source %s 2>/dev/null\n"  # its definitions (its last line completes, which needs a command line)
             "_describe() { print -l -- ${(P)2} }\n"
             "_shtab_moontable_commands\n"
             "print -l -- $_shtab_moontable_flash_options\n" % (tmp_path, tmp_path, script))
    r = subprocess.run(["zsh", "-f", "-c", probe], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, HOME=str(tmp_path)))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "REGISTERED _moontable" in lines, r.stdout
    commands = [l.split(":")[0] for l in lines if ":'" in l or (":" in l and not l.startswith(("-", "REG", "(")))]
    assert {"flash", "sim", "sync", "report", "completion"} <= set(commands), r.stdout
    assert any(l.startswith("--board[") and l.endswith(":board:(pico esp32 sim)") for l in lines), r.stdout
