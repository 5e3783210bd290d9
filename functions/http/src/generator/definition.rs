//! A report definition as a form sends it — the name, the module, its screen's parameters, the
//! file's format, graph and columns — declared once for every form that carries one (a
//! template's, a scheduled task's), with the definition's own fields after them.

/// Declares a form struct that starts with a report definition's fields (its `module` field
/// with the attributes given: required for a template, optional beside a template to follow
/// for a task), then the form's own fields; and `definition(&mut self)`, which takes the
/// definition's spec out of it.
macro_rules! definition_form {
    (
        $(#[$attr:meta])*
        pub struct $name:ident {
            $(#[$module:meta])*
            module;
            $($rest:tt)*
        }
    ) => {
        $(#[$attr])*
        pub struct $name {
            /// No control characters.
            #[schema(
                min_length = 1,
                max_length = 120,
                pattern = r"^[^\u0000-\u001F\u007F-\u009F]*$"
            )]
            pub name: String,
            $(#[$module])*
            pub module: String,
            /// The query-string parameters of the module's report screen (each module takes
            /// its own: see `docs/api.md`).
            #[serde(default)]
            #[schema(value_type = $crate::kit::contract::ReportParams)]
            pub params: std::collections::BTreeMap<String, String>,
            /// `xlsx` (default) or `csv`.
            #[serde(default)]
            #[schema(value_type = Option<vendfleet_app::generator::FileFormat>)]
            pub format: String,
            /// `none` (default), `line` or `bar` (the sales overview only).
            #[serde(default)]
            #[schema(value_type = Option<vendfleet_app::generator::Graph>)]
            pub graph: String,
            /// Column keys to keep (`/api/reports/generator/columns/`), empty for all.
            #[serde(default)]
            #[schema(max_items = 100)]
            pub columns: Vec<String>,
            $($rest)*
        }

        impl $name {
            /// The definition's module, parameters, file format, graph and columns, taken
            /// out of the form.
            fn definition(&mut self) -> vendfleet_app::generator::SpecInput {
                vendfleet_app::generator::SpecInput {
                    module: std::mem::take(&mut self.module),
                    params: std::mem::take(&mut self.params),
                    format: std::mem::take(&mut self.format),
                    graph: std::mem::take(&mut self.graph),
                    columns: std::mem::take(&mut self.columns),
                }
            }
        }
    };
}

pub(crate) use definition_form;
