"""Experiments around knightstour: the searches for a magic 12x12 tour (README.md).

Never imported by the package, not in the wheel; it imports knightstour's public and private
names. Run its tools and tests from the repository's root (``python -m research.magic_patterns``,
``python -m pytest research``).
"""
