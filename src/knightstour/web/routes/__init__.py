"""The web app's routes, a module an area, each an :class:`fastapi.APIRouter`.

- :mod:`~knightstour.web.routes.solve`: ``/api/solve``, ``/api/exists``, ``/api/puzzle``,
  ``/api/limits``;
- :mod:`~knightstour.web.routes.count`: ``/api/count``;
- :mod:`~knightstour.web.routes.numbers`: ``/api/numbers``, ``/api/numbers/check`` and
  ``/api/numbers/hint`` (Numbers mode);
- :mod:`~knightstour.web.routes.render`: ``/api/render/svg|png|gif``;
- :mod:`~knightstour.web.routes.pages`: the page, its static files and ``/docs``.

The palette, the daily puzzle and the gallery are :mod:`knightstour.web.gallery`. A route gets
the app's state, a :class:`~knightstour.web.state.Server`, as a parameter
(:data:`~knightstour.web.state.ServerDep`).
"""
