//! Machine tags: list, create, delete, and tagging machines in bulk.

use super::machine::*;
use crate::kit::crud;
use crate::kit::dto::{ListReply, MessageData, Pagination};
use crate::kit::error::{ApiResult, ErrorBody};
use crate::kit::extract::{machines_perm as perm, Authorized, Json};
use crate::kit::reply::updated;
use crate::kit::state::AppState;
use axum::extract::State;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

/// The routes.
pub(super) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_tags, create_tag))
        .routes(routes!(delete_tag))
        .routes(routes!(manage_tags))
}

/// A machine tag.
#[derive(Debug, Serialize, ToSchema)]
pub struct TagDto {
    pub id: String,
    pub name: String,
    /// Machines carrying the tag, among those the caller may see.
    pub machines_count: usize,
    #[serde(rename = "createdAt")]
    pub created_at: DateTime<Utc>,
}

/// Every machine tag, with how many machines carry it.
#[utoipa::path(get, path = "/api/machines/tags/", tag = "machines", security(("bearer" = [])),
    responses((status = 200, body = ListReply<TagDto>)))]
async fn list_tags(
    State(s): State<AppState>,
    a: Authorized<perm::TagsList>,
) -> ApiResult<axum::Json<ListReply<TagDto>>> {
    let tags = s.app.machines.list_tags().await?;
    // Counts only the machines the caller may see.
    let machines = s.app.machines.visible(a.principal()).await?;
    let data: Vec<TagDto> = tags
        .into_iter()
        .map(|t| TagDto {
            machines_count: machines
                .iter()
                .filter(|m| m.tag_ids.contains(&t.id))
                .count(),
            id: t.id,
            name: t.name,
            created_at: t.created_at,
        })
        .collect();
    let n = data.len();
    Ok(axum::Json(ListReply {
        data,
        pagination: Pagination {
            count: n,
            page: 1,
            page_size: n.max(1),
        },
    }))
}

/// A new tag.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TagForm {
    #[serde(default)]
    #[schema(required = true, max_length = 60)]
    pub name: String,
}

crud::create! {
    /// Creates a machine tag.
    create_tag("/api/machines/tags/", "machines") -> TagDto, "Tag created successfully",
    |s, _a: perm::TagsNew, f: TagForm| {
        let t = s.app.machines.create_tag(&f.name).await?;
        TagDto {
            id: t.id,
            name: t.name,
            machines_count: 0,
            created_at: t.created_at,
        }
    }
}

crud::delete! {
    /// Deletes a machine tag and takes it off its machines.
    delete_tag("/api/machines/tags/{id}/", "machines"), "Tag deleted successfully",
    |s, _a: perm::TagsDelete, id| s.app.machines.delete_tag(&id).await?
}

/// `POST /api/machines/tags/manage/`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ManageTagsRequest {
    #[serde(default)]
    #[schema(required = true, min_items = 1, max_items = 100)]
    pub machine_ids: Vec<String>,
    #[serde(default)]
    pub add: Vec<String>,
    #[serde(default)]
    pub remove: Vec<String>,
}

/// Adds and removes tags on several machines, all or nothing.
#[utoipa::path(post, path = "/api/machines/tags/manage/", tag = "machines", security(("bearer" = [])), request_body = ManageTagsRequest,
    responses((status = 200, body = MessageData<Vec<MachineDto>>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn manage_tags(
    State(s): State<AppState>,
    a: Authorized<perm::MachinesEdit>,
    Json(r): Json<ManageTagsRequest>,
) -> ApiResult<axum::Json<MessageData<Vec<MachineDto>>>> {
    let ms = s
        .app
        .machines
        .manage_tags(a.principal(), &r.machine_ids, &r.add, &r.remove)
        .await?;
    let l = Lookups::load(&s).await?;
    Ok(updated(
        "Tags updated successfully",
        ms.into_iter().map(|m| l.machine(m, false)).collect(),
    ))
}
