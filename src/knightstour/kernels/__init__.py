"""The compiled kernels (the hot loops) and their one loader, at the bottom of the layers.

Each module here is plain Python in the subset that Numba compiles, imports nothing of the
package but other kernel modules, and names its kernels in ``__kernels__``;
:mod:`knightstour.kernels.jit` returns them interpreted or compiled (and cached on disk), so any
layer can use compiled speed. Importing a kernel module imports no Numba.

- :mod:`~knightstour.kernels.walk`: Warnsdorff walks, neighbour tables, the check of long tours;
- :mod:`~knightstour.kernels.search`: the exact search that proves absence;
- :mod:`~knightstour.kernels.divide`: divide and conquer for huge boards;
- :mod:`~knightstour.kernels.library`: the tour library's batch walks and canonical forms;
- :mod:`~knightstour.kernels.frontier`, :mod:`~knightstour.kernels.enumerate`: exact counts;
- :mod:`~knightstour.kernels.magic_search`, :mod:`~knightstour.kernels.magic_quads`: the
  semi-magic search and its quad pass;
- :mod:`~knightstour.kernels.text`: the text of huge tours;
- :mod:`~knightstour.kernels.geometry`: the shape of a tour (crossings, turns, symmetries);
- :mod:`~knightstour.kernels.numbers`: the exact search of a number puzzle.

>>> from knightstour.kernels import jit, walk
>>> jit.load(walk, compiled=False).names() == tuple(walk.__kernels__)
True
"""
