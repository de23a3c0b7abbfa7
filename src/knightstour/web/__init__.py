"""The interactive web board (``knightstour serve``) and puzzle mode.

The app (:mod:`knightstour.web.app`) needs FastAPI, imported only when it is used:
``pip install 'knightstour[web]'``. :mod:`knightstour.web.puzzle` is plain Python.
"""
