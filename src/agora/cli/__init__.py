"""The ``agora`` command line (typer)."""
