"""Magic knight's tours: the search for semi-magic tours, and constructions on bigger boards.

:mod:`knightstour.magic.search` walks numbered ranges of small boards (8x8 and below) with a
compiled two-ended search; :mod:`knightstour.magic.construct` builds semi-magic (and magic) tours
on bigger boards. The analysis of any tour is :mod:`knightstour.numbering` (``Tour.magic()``).
"""
