"""The one exception type that means "the user gave bad input"."""


class InputError(ValueError):
    """Bad input (a board, a level, an option): the CLI prints it as one ``Error:`` line
    and exits with code 2."""
