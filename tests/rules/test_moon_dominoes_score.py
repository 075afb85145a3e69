"""Moon dominoes: runs test_moon_dominoes_score_cases.py (see test_moon_dominoes_load.py)."""
from test_moon_dominoes_load import load
load(__name__, "test_moon_dominoes_score_cases")
