//! Machine events area: the signed webhook machines post their events to
//! (`POST /webhooks/machines/{machine_id}/events`, docs/webhook.md). It is the machines' own
//! contract, outside `/api` and its OpenAPI document: no user token, a signature instead.

use crate::kit::error::ApiResult;
use crate::kit::state::AppState;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::Json;
use serde::Serialize;
use utoipa_axum::router::OpenApiRouter;
use vendfleet_app::events::Delivery;
use vendfleet_domain::events::{Receipt, MAX_BODY_BYTES, SIGNATURE_HEADER, TIMESTAMP_HEADER};

/// The webhook's path.
pub const WEBHOOK_PATH: &str = "/webhooks/machines/{machine_id}/events";

/// The machine events area's routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().route(
        WEBHOOK_PATH,
        post(receive).layer(DefaultBodyLimit::max(MAX_BODY_BYTES)),
    )
}

/// `{"data": {"accepted", "duplicates", "rejected"}}`.
#[derive(Serialize)]
struct ReceiptReply {
    data: Receipt,
}

async fn receive(
    State(s): State<AppState>,
    Path(machine_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<ReceiptReply>> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let received = s
        .app
        .events
        .receive(Delivery {
            machine_id: &machine_id,
            timestamp: header(TIMESTAMP_HEADER),
            signature: header(SIGNATURE_HEADER),
            body: &body,
        })
        .await;
    let receipt = match received {
        Ok(receipt) => receipt,
        Err(e) => {
            metrics::counter!("vendfleet_webhook_batches_total", "outcome" => "refused")
                .increment(1);
            tracing::info!(machine_id = %machine_id, bytes = body.len(), error = %e, "webhook batch refused");
            return Err(e.into());
        }
    };
    metrics::counter!("vendfleet_webhook_batches_total", "outcome" => "taken").increment(1);
    for (outcome, n) in [
        ("accepted", receipt.accepted),
        ("duplicate", receipt.duplicates),
        ("rejected", receipt.rejected.len()),
    ] {
        metrics::counter!("vendfleet_webhook_events_total", "outcome" => outcome)
            .increment(n as u64);
    }
    // One line a batch: which machine, how much, what became of it (never the body or the
    // signature).
    tracing::info!(
        machine_id = %machine_id,
        bytes = body.len(),
        accepted = receipt.accepted,
        duplicates = receipt.duplicates,
        rejected = receipt.rejected.len(),
        "webhook batch"
    );
    Ok(Json(ReceiptReply { data: receipt }))
}
