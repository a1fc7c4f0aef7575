"""Saving: records and text to files, whole or not at all (a temporary beside the file,
then a rename), compressed as the file's name ends. The reading side is :mod:`notation.read`."""
