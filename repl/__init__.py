"""Front ends over the public engine API: the `cardgame` command line and the REPL."""
