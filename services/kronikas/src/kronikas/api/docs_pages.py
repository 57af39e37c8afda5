"""The docs pages under `/schema`, with every asset served by the service itself.

Litestar's render plugins link their scripts and styles from CDNs by default (Scalar unpinned,
Litestar's branding at a branch). Here each plugin gets the URLs of files committed under
`api/static/docs/` at pinned versions (`api/static/README.md` says where they came from and how to
update them), served at `/schema/assets/` by a static files router kept out of the document.

Every HTML answer under `/schema` and every asset carries the pages' headers (`web.page_headers`):
a Content-Security-Policy whose `script-src` is the service plus the sha256 of each inline script
of the page as rendered (the pages hold two: Scalar's configuration, Swagger UI's start-up with
the document), `Referrer-Policy: no-referrer` and `X-Content-Type-Options: nosniff`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from litestar import Request, Response, Router
from litestar.background_tasks import BackgroundTask, BackgroundTasks
from litestar.datastructures import CacheControlHeader, Cookie
from litestar.enums import MediaType
from litestar.openapi.plugins import OpenAPIRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.response.base import ASGIResponse
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Message, Receive, Scope, Send, TypeEncodersMap

from kronikas.api.web import cors_origins, inline_hashes, page_headers

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


class DocsPage(Response[Any]):
    """An answer under `/schema`: an HTML one gets the pages' headers, with its inline hashes."""

    def to_asgi_response(
        self,
        app: Any,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: MediaType | str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        kind = str(self.media_type or media_type or "")
        if kind.startswith(MediaType.HTML) and isinstance(self.content, bytes | str):
            body = self.content.encode() if isinstance(self.content, str) else self.content
            scripts, styles = inline_hashes(body)
            # Scalar adds <style> elements as it runs (its theme, its components' styles), which
            # no hash can name in advance: its page allows inline styles. Scripts never.
            scalar = SCALAR.encode() in body
            self.headers.update(
                page_headers(cors_origins(request.app.state), scripts, styles, inline_styles=scalar)
            )
        return super().to_asgi_response(
            app,
            request,
            background=background,
            cookies=cookies,
            encoded_headers=encoded_headers,
            headers=headers,
            is_head_response=is_head_response,
            media_type=media_type,
            status_code=status_code,
            type_encoders=type_encoders,
        )


class _Scalar(ScalarRenderPlugin):
    def render_options(self) -> str:
        # Zod, inside Scalar's bundle, probes `Function("")` to decide whether to compile its
        # validators; the policy refuses eval, so the probe is a violation each time the page
        # loads. Told to run "jitless" before the bundle loads, it never tries.
        jitless = "<script>globalThis.__zod_globalConfig = { jitless: true };</script>"
        return jitless + super().render_options()

    def receive_router(self, router: Router) -> None:
        # The router Litestar makes for `/schema` answers through `DocsPage` (a documented
        # place to configure it; the answers are made when first asked for, after this).
        router.response_class = DocsPage


class _Swagger(SwaggerRenderPlugin):
    def receive_router(self, router: Router) -> None:
        super().receive_router(router)  # its OAuth2 redirect page
        router.response_class = DocsPage


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Scalar at `/schema` (the default) and Swagger UI at `/schema/swagger`, both offline."""
    return [
        _Scalar(
            js_url=f"{ASSETS_PATH}/{SCALAR}/standalone.js",
            css_url=f"{ASSETS_PATH}/scalar.css",
            options=dict(_SCALAR_OPTIONS),
            favicon=_FAVICON,
        ),
        _Swagger(
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
        middleware=[_with_page_headers],
    )


def _with_page_headers(app: ASGIApp) -> ASGIApp:
    """Adds the pages' headers to every answer of the assets (an SVG opened alone is a page)."""

    async def with_headers(scope: Scope, receive: Receive, send: Send) -> None:
        headers = [
            (name.encode(), value.encode())
            for name, value in page_headers(cors_origins(scope["app"].state)).items()
        ]

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [h for h in message.get("headers", ()) if h[0].lower() not in _OURS]
                message["headers"] = [*kept, *headers]
            await send(message)

        await app(scope, receive, sending)

    return with_headers


_OURS = {b"content-security-policy", b"referrer-policy", b"x-content-type-options"}
