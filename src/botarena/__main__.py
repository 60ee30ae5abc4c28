"""`python -m botarena` runs the command line."""

from botarena.cli import main

main()
