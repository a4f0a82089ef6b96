"""`python -m eterna` runs the command line."""

from eterna.cli import main

if __name__ == "__main__":
    main()
