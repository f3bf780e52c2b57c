"""The exceptions that mean "the user gave bad input" and "a plugin broke its contract"."""


class InputError(ValueError):
    """Bad input (a board, a level, an option): the CLI prints it as one ``Error:`` line
    and exits with code 2."""


class PluginError(RuntimeError):
    """A domain plugin broke the `Problem` contract (e.g. its ``predecessors`` do not invert
    its ``successors``): not the user's input, so the CLI prints one ``Error:`` line that
    says what the plugin got wrong and exits with code 1."""
