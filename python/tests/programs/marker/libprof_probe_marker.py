"""Importable only from the program's own PYTHONPATH entry."""
