"""The user's mistakes that every entry point answers alike: one line, exit 2, a 4xx."""


class UserError(Exception):
    """A mistake the user can mend (an input, an option, a damaged store); the message is
    one line that names the thing and the problem."""
