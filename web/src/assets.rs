//! The page's files, built into the binary: nothing to install beside it, nothing fetched from
//! the internet.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const FILES: &[(&str, &str, &str)] = &[
    ("index.html", "text/html; charset=utf-8", include_str!("../assets/index.html")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
];

pub fn serve(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => {
            ([(header::CONTENT_TYPE, *mime), (header::CACHE_CONTROL, "no-cache")], *body).into_response()
        }
        None => (StatusCode::NOT_FOUND, axum::Json(serde_json::json!({"error": "no such file"}))).into_response(),
    }
}
