"""The browser tests (a package: the browser fixture is scoped to it, see conftest.py)."""
