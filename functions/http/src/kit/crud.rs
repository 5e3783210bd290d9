//! The shared kit of the areas' handlers, so that an area writes only what differs: the route,
//! the permission, the form and DTO types, the reply message and the service call.
//!
//! The handlers of a catalogue resource, each with its `#[utoipa::path]`: every macro takes the
//! handler's doc comment (the operation's summary), its name, path and OpenAPI tag (and any
//! further `key = value` of `#[utoipa::path]`, e.g. `operation_id`), the DTO it answers with, and
//! a closure-like body that binds the extractors by name:
//!
//! ```ignore
//! crud::get! {
//!     /// One client.
//!     get_client("/api/clients/{id}/", "settings") -> ClientDto,
//!     |s, a: perm::ClientsList, id| s.app.fleet.get_client(a.principal(), &id).await?.into()
//! }
//! ```
//!
//! - `list!`: `|s, a: Perm, q: Query| ListReply<Dto>`, answers `{data, pagination}`.
//! - `create!`: `|s, a: Perm, f: Form| Dto` and a message, answers 201 `{message, code, data}`.
//! - `get!`: `|s, a: Perm, id| Dto`, answers `{data}`.
//! - `update!`: `|s, a: Perm, id, f: Form| Dto` and a message, answers `{message, code, data}`.
//! - `delete!`: `|s, a: Perm, id| ()` and a message, answers `{message, code}`.
//! - `options!` / `values!` (tag `filters`, path only): `|s, a: Perm|` the `(id, name)` pairs /
//!   the values of a filter, answers `{data: [...]}`.
//!
//! - `export!`: a report screen's export, `|s, a: Perm, q: Query, …| ReportParams` and the
//!   module and file name; answers the module's table as a file, or 202 with a background job
//!   for a large one.
//!
//! The body runs inside the handler: `?` returns the error answer. The documented responses are
//! the usual ones of the kind; a trailing `, responses(...)` replaces them (the types it names
//! are resolved in the calling module).
//!
//! The query strings and field conversions the DTOs declare are in `fields`.

/// One handler: its doc, its `#[utoipa::path]` (bearer security; the responses given, else the
/// kind's), and the fn taking the state, the signed-in user checked against the permission, then
/// the other extractors.
macro_rules! handler {
    (
        $(#[doc = $doc:tt])*
        $method:ident $name:ident($path:tt, $tag:tt, [$($attr:tt)*])
        responses [] or $default:tt
        $($rest:tt)*
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            $method $name($path, $tag, [$($attr)*])
            responses [$default] or ()
            $($rest)*
        }
    };
    (
        $(#[doc = $doc:tt])*
        $method:ident $name:ident($path:tt, $tag:tt, [$($attr:tt)*])
        responses [$responses:tt] or $default:tt
        |$s:ident, $a:ident: $perm:path, [$($param:tt)*]| -> [$($reply:tt)*] $body:tt
    ) => {
        $(#[doc = $doc])*
        #[utoipa::path($method, path = $path, tag = $tag, $($attr)*
            security(("bearer" = [])), responses $responses)]
        async fn $name(
            ::axum::extract::State($s): ::axum::extract::State<$crate::kit::state::AppState>,
            $a: $crate::kit::extract::Authorized<$perm>,
            $($param)*
        ) -> $crate::kit::error::ApiResult<$($reply)*> $body
    };
}

/// A paged list: `GET path` with the query's parameters.
macro_rules! list {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt $(, $key:ident = $value:tt)*) -> $dto:ident,
        |$s:ident, $a:ident: $perm:path, $q:ident: $query:ident| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            get $name($path, $tag, [$($key = $value,)* params($query),])
            responses [$($responses)?] or (
                (status = 200, body = $crate::kit::dto::ListReply<$dto>),
                (status = 400, body = $crate::kit::error::ErrorBody),
                (status = 403, body = $crate::kit::error::ErrorBody),
            )
            |$s, $a: $perm, [$crate::kit::extract::Query($q): $crate::kit::extract::Query<$query>]|
            -> [::axum::Json<$crate::kit::dto::ListReply<$dto>>] { Ok(::axum::Json($body)) }
        }
    };
}

/// A creation: `POST path` with the form; 201 with the message and the new item.
macro_rules! create {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt $(, $key:ident = $value:tt)*) -> $dto:ident, $message:tt,
        |$s:ident, $a:ident: $perm:path, $f:ident: $form:ident| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            post $name($path, $tag, [$($key = $value,)* request_body = $form,])
            responses [$($responses)?] or (
                (status = 201, body = $crate::kit::dto::MessageData<$dto>),
                (status = 400, body = $crate::kit::error::ErrorBody),
                (status = 409, body = $crate::kit::error::ErrorBody),
            )
            |$s, $a: $perm, [$crate::kit::extract::Json($f): $crate::kit::extract::Json<$form>]|
            -> [$crate::kit::reply::Created<$dto>] { Ok($crate::kit::reply::created($message, $body)) }
        }
    };
}

/// One item: `GET path` with the `{id}` in it.
macro_rules! get {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt $(, $key:ident = $value:tt)*) -> $dto:ident,
        |$s:ident, $a:ident: $perm:path, $id:ident| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            get $name($path, $tag, [$($key = $value,)* params(("id" = String, Path)),])
            responses [$($responses)?] or (
                (status = 200, body = $crate::kit::dto::Data<$dto>),
                (status = 404, body = $crate::kit::error::ErrorBody),
            )
            |$s, $a: $perm, [::axum::extract::Path($id): ::axum::extract::Path<String>]|
            -> [::axum::Json<$crate::kit::dto::Data<$dto>>] {
                Ok(::axum::Json($crate::kit::dto::Data { data: $body }))
            }
        }
    };
}

/// An update: `PUT path` with the `{id}` in it and the form; 200 with the message and the item.
macro_rules! update {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt $(, $key:ident = $value:tt)*) -> $dto:ident, $message:tt,
        |$s:ident, $a:ident: $perm:path, $id:ident, $f:ident: $form:ident| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            put $name($path, $tag, [
                $($key = $value,)* params(("id" = String, Path)), request_body = $form,
            ])
            responses [$($responses)?] or (
                (status = 200, body = $crate::kit::dto::MessageData<$dto>),
                (status = 400, body = $crate::kit::error::ErrorBody),
                (status = 404, body = $crate::kit::error::ErrorBody),
                (status = 409, body = $crate::kit::error::ErrorBody),
            )
            |$s, $a: $perm, [
                ::axum::extract::Path($id): ::axum::extract::Path<String>,
                $crate::kit::extract::Json($f): $crate::kit::extract::Json<$form>,
            ]|
            -> [::axum::Json<$crate::kit::dto::MessageData<$dto>>] {
                Ok($crate::kit::reply::updated($message, $body))
            }
        }
    };
}

/// A deletion: `DELETE path` with the `{id}` in it; 200 with the message.
macro_rules! delete {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt $(, $key:ident = $value:tt)*), $message:tt,
        |$s:ident, $a:ident: $perm:path, $id:ident| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            delete $name($path, $tag, [$($key = $value,)* params(("id" = String, Path)),])
            responses [$($responses)?] or (
                (status = 200, body = $crate::kit::dto::Message),
                (status = 404, body = $crate::kit::error::ErrorBody),
                (status = 409, body = $crate::kit::error::ErrorBody),
            )
            |$s, $a: $perm, [::axum::extract::Path($id): ::axum::extract::Path<String>]|
            -> [::axum::Json<$crate::kit::dto::Message>] {
                $body;
                Ok($crate::kit::reply::message($message))
            }
        }
    };
}

/// A filter's option list: `GET path` (tag `filters`) answering `{data: [{id, name}]}`, sorted by
/// name; the body gives the `(id, name)` pairs.
macro_rules! options {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt $(, $key:ident = $value:tt)*),
        |$s:ident, $a:ident: $perm:path| $body:expr
        $(, responses $responses:tt)?
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            get $name($path, "filters", [$($key = $value,)*])
            responses [$($responses)?] or (
                (status = 200, body = $crate::kit::dto::Data<Vec<$crate::kit::dto::OptionDto>>),
            )
            |$s, $a: $perm, []|
            -> [::axum::Json<$crate::kit::dto::Data<Vec<$crate::kit::dto::OptionDto>>>] {
                Ok($crate::kit::reply::options($body))
            }
        }
    };
}

/// A filter's value list: `GET path` (tag `filters`) answering `{data: [value]}`; the body gives
/// the values.
macro_rules! values {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt),
        |$s:ident, $a:ident: $perm:path| $body:expr
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            get $name($path, "filters", [])
            responses [] or ((status = 200, body = $crate::kit::dto::Data<Vec<String>>))
            |$s, $a: $perm, []|
            -> [::axum::Json<$crate::kit::dto::Data<Vec<String>>>] { Ok($crate::kit::reply::values($body)) }
        }
    };
}

pub(crate) use {create, delete, get, handler, list, options, update, values};

/// A report screen's export: `GET path` with the screen's query strings and `format`; the
/// module's table run with the `ReportParams` the body gives, answered as a file (200) or, when
/// large, as a background job (202). The error answers are 400 and 403 unless `errors (...)`
/// names others.
macro_rules! export {
    (
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt) -> $module:ident as $base:tt,
        |$s:ident, $a:ident: $perm:path $(, $q:ident: $query:ty)*| $params:expr
        $(, errors ($($errors:tt)*))?
    ) => {
        $crate::kit::crud::export! {
            @errors [$($($errors)*)?]
            $(#[doc = $doc])*
            $name($path, $tag) -> $module as $base,
            |$s, $a: $perm $(, $q: $query)*| $params
        }
    };
    (
        @errors []
        $($rest:tt)*
    ) => {
        $crate::kit::crud::export! {
            @errors [
                (status = 400, body = $crate::kit::error::ErrorBody),
                (status = 403, body = $crate::kit::error::ErrorBody)
            ]
            $($rest)*
        }
    };
    (
        @errors [$($errors:tt)+]
        $(#[doc = $doc:tt])*
        $name:ident($path:tt, $tag:tt) -> $module:ident as $base:tt,
        |$s:ident, $a:ident: $perm:path $(, $q:ident: $query:ty)*| $params:expr
    ) => {
        $crate::kit::crud::handler! {
            $(#[doc = $doc])*
            get $name($path, $tag, [params($($query,)* $crate::kit::export::ExportQuery),])
            responses [(
                (status = 200, response = inline($crate::kit::export::Download)),
                (status = 202, description = "A large export queued as a background job: follow it at /api/jobs/{id}/",
                    body = $crate::kit::dto::MessageData<$crate::kit::export::JobDto>),
                $($errors)+
            )] or ()
            |$s, $a: $perm, [
                $( $crate::kit::extract::Query($q): $crate::kit::extract::Query<$query>, )*
                $crate::kit::extract::Query(export): $crate::kit::extract::Query<$crate::kit::export::ExportQuery>,
            ]| -> [::axum::response::Response] {
                let params = $params;
                $crate::kit::export::report(
                    &$s,
                    $a.requester(),
                    vendfleet_app::generator::Module::$module,
                    &params,
                    export,
                    $base,
                )
                .await
            }
        }
    };
}

pub(crate) use export;
