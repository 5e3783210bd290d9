//! Declarations the DTOs share: `list_query!` declares a list's query string (paging, search,
//! ordering and the list's filters) with its conversion to the service's parameters, and
//! `from_fields!` the `From` conversions that move fields of the same names.

/// A list's query string: paging, search and ordering (each may carry its doc comment; ordering
/// also a `#[param(pattern = …)]` naming the orders the list takes), then the
/// list's own filters, all optional strings. `=> Params` also converts it to the service's
/// parameters (`Params { list, filters… }`, the filters named as in the query).
macro_rules! list_query {
    (
        $(#[doc = $doc:tt])*
        pub struct $name:ident => $params:path {
            $($body:tt)*
        }
    ) => {
        $crate::kit::fields::list_query! {
            $(#[doc = $doc])*
            pub struct $name {
                $($body)*
            }
        }
        $crate::kit::fields::list_query!(@params $name => $params { $($body)* });
    };
    (
        $(#[doc = $doc:tt])*
        pub struct $name:ident {
            $(#[doc = $page:tt])* page,
            $(#[doc = $page_size:tt])* page_size,
            $(#[doc = $search:tt])* search,
            $(#[$($ordering:tt)*])* ordering,
            $($(#[$($attr:tt)*])* pub $field:ident: Option<String>,)*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Default, ::serde::Deserialize, ::utoipa::IntoParams)]
        #[into_params(parameter_in = Query)]
        pub struct $name {
            $(#[doc = $page])*
            #[param(minimum = 1)]
            pub page: Option<i64>,
            $(#[doc = $page_size])*
            #[param(minimum = 1, maximum = 200)]
            pub page_size: Option<i64>,
            $(#[doc = $search])*
            pub search: Option<String>,
            $(#[$($ordering)*])*
            pub ordering: Option<String>,
            $($(#[$($attr)*])* pub $field: Option<String>,)*
        }

        impl $name {
            /// The query's paging, search and ordering.
            pub fn list(&self) -> ::vendfleet_app::listing::ListParams {
                ::vendfleet_app::listing::ListParams {
                    page: self.page,
                    page_size: self.page_size,
                    search: self.search.clone(),
                    ordering: self.ordering.clone(),
                }
            }
        }
    };
    (@params $name:ident => $params:path {
        $(#[doc = $page:tt])* page,
        $(#[doc = $page_size:tt])* page_size,
        $(#[doc = $search:tt])* search,
        $(#[$($ordering:tt)*])* ordering,
        $($(#[$($attr:tt)*])* pub $field:ident: Option<String>,)*
    }) => {
        impl From<&$name> for $params {
            fn from(q: &$name) -> Self {
                Self {
                    list: q.list(),
                    $($field: q.$field.clone(),)*
                }
            }
        }
    };
}

/// `From<Source> for Target` moving the fields of the same names; the fields after
/// `or_default:` are options on the source side, their default when absent.
macro_rules! from_fields {
    ($src:ty => $dst:ty { $($field:ident),* $(,)? $(; or_default: $($option:ident),* $(,)?)? }) => {
        impl From<$src> for $dst {
            fn from(v: $src) -> Self {
                Self {
                    $($field: v.$field,)*
                    $($($option: v.$option.unwrap_or_default(),)*)?
                }
            }
        }
    };
}

pub(crate) use {from_fields, list_query};
