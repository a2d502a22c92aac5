//! The HTTP surface, as snmp_exporter's: `/snmp`, `/metrics`, `/config`, `/-/reload`,
//! `/-/healthy` and a landing page at `/`.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;

use crate::exporter::{Exporter, Reply, Request};

/// The routes over `exporter`.
pub fn router(exporter: Arc<Exporter>) -> Router {
    router_with(exporter, "/metrics")
}

/// The routes over `exporter`, its own metrics under `telemetry` (`--web.telemetry-path`).
pub fn router_with(exporter: Arc<Exporter>, telemetry: &str) -> Router {
    let telemetry = if telemetry.starts_with('/') {
        telemetry.to_string()
    } else {
        format!("/{telemetry}")
    };
    Router::new()
        .route("/snmp", get(snmp))
        .route(&telemetry, get(metrics))
        .route("/config", get(config))
        .route("/-/reload", any(reload))
        .route("/-/healthy", get(|| async { "Healthy" }))
        .route("/", get(landing))
        .with_state(exporter)
}

/// [`router_with`], every route behind HTTP basic authentication when `auth` has users
/// (`--web.config.file`'s `basic_auth_users`).
pub fn router_guarded(
    exporter: Arc<Exporter>,
    telemetry: &str,
    auth: Option<Arc<crate::web_config::BasicAuth>>,
) -> Router {
    let routes = router_with(exporter, telemetry);
    match auth {
        Some(auth) => routes.layer(axum::middleware::from_fn_with_state(
            auth,
            crate::web_config::require,
        )),
        None => routes,
    }
}

/// Serves the routes over `exporter` on `listener` until the listener fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    exporter: Arc<Exporter>,
) -> std::io::Result<()> {
    axum::serve(listener, router(exporter)).await
}

/// Serves `app` over TLS on `listener` (`--web.config.file`'s `tls_server_config`): each
/// connection's handshake on a task of its own, bounded by [`HANDSHAKE_TIMEOUT`], then HTTP/1.1
/// over it. Runs until the listener fails for good; a failed handshake only ends its
/// connection (said at debug level).
pub async fn serve_tls(
    listener: tokio::net::TcpListener,
    app: Router,
    tls: Arc<rustls::ServerConfig>,
) -> std::io::Result<()> {
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of descriptors and the like: the next accept may succeed.
            Err(e) if is_transient(&e) => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
            Err(e) => return Err(e),
        };
        let (acceptor, app) = (acceptor.clone(), app.clone());
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream));
            let stream = match handshake.await {
                Ok(Ok(s)) => s,
                Ok(Err(e)) => return tracing::debug!(%peer, "TLS handshake failed: {e}"),
                Err(_) => return tracing::debug!(%peer, "TLS handshake timed out"),
            };
            let service = hyper_util::service::TowerToHyperService::new(app);
            let io = hyper_util::rt::TokioIo::new(stream);
            let served = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
            if let Err(e) = served {
                tracing::debug!(%peer, "connection: {e}");
            }
        });
    }
}

/// How long a client has to finish its TLS handshake.
pub const HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Accept errors that say nothing about the listener itself: a connection gone before it was
/// taken, or the process out of descriptors or memory for a moment (ENFILE, EMFILE, ENOMEM,
/// ENOBUFS).
fn is_transient(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    ) || e
        .raw_os_error()
        .is_some_and(|n| matches!(n, 12 | 23 | 24 | 105))
}

fn reply(r: Reply) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, [(header::CONTENT_TYPE, r.content_type)], r.body).into_response()
}

async fn snmp(
    State(exporter): State<Arc<Exporter>>,
    Query(query): Query<Vec<(String, String)>>,
    headers: HeaderMap,
) -> Response {
    let scrape_timeout = headers
        .get("X-Prometheus-Scrape-Timeout-Seconds")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let request = Request {
        query,
        scrape_timeout,
        accept,
    };
    reply(exporter.scrape(&request).await)
}

async fn metrics(State(exporter): State<Arc<Exporter>>) -> Response {
    let body = exporter.metrics.encode();
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        body,
    )
        .into_response()
}

async fn config(State(exporter): State<Arc<Exporter>>) -> Response {
    let yaml = exporter.config().to_yaml();
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], yaml).into_response()
}

async fn reload(State(exporter): State<Arc<Exporter>>, method: Method) -> Response {
    if method != Method::POST {
        return (StatusCode::BAD_REQUEST, "POST method expected\n").into_response();
    }
    match exporter.reload() {
        Ok(()) => StatusCode::OK.into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("failed to reload config: {e}\n"),
        )
            .into_response(),
    }
}

async fn landing(State(exporter): State<Arc<Exporter>>) -> Html<String> {
    let config = exporter.config();
    let modules: Vec<&str> = config.compiled.modules.keys().map(String::as_str).collect();
    Html(format!(
        "<!DOCTYPE html>\n<html><head><title>SNMP Exporter</title></head><body>\n\
         <h1>SNMP Exporter</h1>\n<p>Prometheus exporter for SNMP targets (snmp-exporter {}).</p>\n\
         <form action=\"/snmp\">\n\
         <label>Target: <input type=\"text\" name=\"target\" placeholder=\"X.X.X.X/[::X]\" value=\"::1\"></label><br>\n\
         <label>Auth: <input type=\"text\" name=\"auth\" placeholder=\"auth\" value=\"public_v2\"></label><br>\n\
         <label>Module: <input type=\"text\" name=\"module\" placeholder=\"module\" value=\"if_mib\"></label><br>\n\
         <input type=\"submit\" value=\"Submit\"></form>\n\
         <p>Modules: {}</p>\n<ul><li><a href=\"/config\">Config</a></li><li><a href=\"/metrics\">Metrics</a></li></ul>\n\
         </body></html>\n",
        env!("CARGO_PKG_VERSION"),
        html_escape(&modules.join(", "))
    ))
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
