"""What pyproject.toml cannot say for setuptools: the import packages, and
the files the commands need shipped inside the wheel.

- The PC side is the import package PC, from the folder host/.
- The rules core is `shared_rules`, with every subpackage it has.
- The firmware sources, the pin maps and the web page's own files go in as
  package data of PC + "._data" (the repository's root mapped into the
  package), so an installed `moontable` finds them with importlib.resources
  (host/places.py) and no command reads outside site-packages.
"""

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

PC = "moontable"  # the import name of the PC side (its folder stays host/)

# Relative to the repository's root; `**` reaches every subfolder.
DATA = [
    "firmware/**/*.py",
    "hardware/boards/*.json",
    "web/index.html",
    "web/mpboard.mjs",
    "web/sw.js",
    "web/page/*.mjs",
    "web/page/*.css",
]



class BuildPy(build_py):
    """The data package holds files only: the root's own .py (this file)
    is not one of its modules."""

    def find_package_modules(self, package, package_dir):
        if package == PC + "._data":
            return []
        return super().find_package_modules(package, package_dir)


setup(
    cmdclass={"build_py": BuildPy},
    packages=[PC + p[len("host"):] for p in find_packages(include=["host", "host.*"])]
    + find_packages(include=["shared_rules", "shared_rules.*"])
    + [PC + "._data"],
    package_dir={PC: "host", PC + "._data": "."},
    package_data={PC + "._data": DATA, PC: ["templates/report/*.j2"]},  # the report's page templates
    include_package_data=False,
)
