"""The docs pages under `/schema`, with every asset served by the service itself.

Litestar's render plugins link their scripts and styles from CDNs by default (Scalar unpinned,
Litestar's branding at a branch). Here each plugin gets the URLs of files committed under
`api/static/docs/` at pinned versions (`api/static/README.md` says where they came from and how to
update them), served at `/schema/assets/` by a static files router kept out of the document.
"""

from __future__ import annotations

from pathlib import Path

from litestar import Router
from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import OpenAPIRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

ASSETS_DIR = Path(__file__).resolve().parent / "static" / "docs"
ASSETS_PATH = "/schema/assets"
SWAGGER_UI = "swagger-ui-dist-5.35.0"
SCALAR = "scalar-api-reference-1.76.0"

_FAVICON = f"<link rel='icon' type='image/svg+xml' href='{ASSETS_PATH}/favicon.svg'>"
_SCALAR_OPTIONS = {
    # Scalar loads its fonts from its own host unless told not to; the system's fonts serve.
    "withDefaultFonts": False,
    # Nothing that talks to Scalar's services: no telemetry, no AI agent, no toolbar that
    # offers to share or deploy the document.
    "telemetry": False,
    "agent": {"disabled": True},
    "showDeveloperTools": "never",
}


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Scalar at `/schema` (the default) and Swagger UI at `/schema/swagger`, both offline."""
    return [
        ScalarRenderPlugin(
            js_url=f"{ASSETS_PATH}/{SCALAR}/standalone.js",
            css_url=f"{ASSETS_PATH}/scalar.css",
            options=dict(_SCALAR_OPTIONS),
            favicon=_FAVICON,
        ),
        SwaggerRenderPlugin(
            path="/swagger",
            js_url=f"{ASSETS_PATH}/{SWAGGER_UI}/swagger-ui-bundle.js",
            css_url=f"{ASSETS_PATH}/{SWAGGER_UI}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS_PATH}/{SWAGGER_UI}/swagger-ui-standalone-preset.js",
            favicon=_FAVICON,
        ),
    ]


def assets_router() -> Router:
    """`/schema/assets/...`: the files of `api/static/docs/`, not in the OpenAPI document.

    A file missing there answers the API's 404 problem. The vendored files never change under a
    name (a new version is a new folder), so browsers may keep them for a day.
    """
    return create_static_files_router(
        path=ASSETS_PATH,
        directories=[ASSETS_DIR],
        name="docs-assets",
        cache_control=CacheControlHeader(public=True, max_age=86_400),
        include_in_schema=False,
    )
