"""Reading: text and its compression, the grammars, the scanner, the visitors and the
readers that turn a file's text into records (layers are named after the data they
produce: this one produces what was read)."""
