"""The interactive web board (``knightstour serve``): the FastAPI app and its static files.

The app (:mod:`knightstour.web.app`) needs FastAPI, imported only when it is used:
``pip install 'knightstour[web]'``. Puzzle mode's game logic is plain Python in
:mod:`knightstour.puzzle`.
"""
