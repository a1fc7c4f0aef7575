"""Programs that play the games: the text protocol they speak (GTP's shape), and, to come,
the bots of ``notation engine`` and the client side that drives an external bot."""
