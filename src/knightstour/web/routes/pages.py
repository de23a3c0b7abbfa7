"""The page (``/``), its static files (``/static``) and the API's documentation (``/docs``).

``/docs`` is Swagger UI from the ``swagger-ui-bundle`` package's files, never a CDN; without
that package, a plain page that lists the operations of ``/openapi.json`` (still offline).
"""

from __future__ import annotations

from html import escape
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

try:
    from swagger_ui_bundle import swagger_ui_path
except ImportError:  # pragma: no cover - the web extra installs it
    swagger_ui_path = None

__all__ = ["STATIC", "add_files", "router"]

#: The page's files: index.html, gallery.html, scripts and styles.
STATIC = Path(str(resources.files("knightstour.web") / "static"))

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    """Swagger UI (its files under ``/docs/assets``), or the plain list of operations."""
    if swagger_ui_path is not None:
        return get_swagger_ui_html(
            openapi_url="openapi.json",
            title="knightstour: API documentation",
            swagger_js_url="docs/assets/swagger-ui-bundle.js",
            swagger_css_url="docs/assets/swagger-ui.css",
            swagger_favicon_url="docs/assets/favicon-32x32.png",
        )
    rows = []  # pragma: no cover - the web extra has Swagger UI
    for path, item in request.app.openapi()["paths"].items():
        for method, op in item.items():
            summary = escape(str(op.get("summary", "")))
            rows.append(f"<li><code>{method.upper()} {escape(path)}</code> {summary}</li>")
    return HTMLResponse(
        "<!doctype html><title>knightstour API</title><h1>knightstour API</h1>"
        f'<ul>{"".join(rows)}</ul><p><a href="openapi.json">OpenAPI schema</a></p>'
    )


def add_files(app: FastAPI) -> None:
    """Serve the static files, and Swagger UI's when the package is there."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if swagger_ui_path is not None:
        app.mount("/docs/assets", StaticFiles(directory=str(swagger_ui_path)), name="docs-assets")
