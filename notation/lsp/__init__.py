"""The language server's library side: what an editor shows of a record file, worked out
from the readers, the one replay and the positions, without any editor or protocol
(``notation lsp`` speaks the Language Server Protocol over it, :mod:`.server`)."""
