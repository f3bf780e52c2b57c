"""Registers the sokoban domain with searchkit."""

from searchkit import hookimpl


@hookimpl
def register_domains(register):
    pass
