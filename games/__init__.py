"""The shipped games, as package data (`importlib.resources.files("games")`)."""
