//! The HTTP layer's plumbing, below every area: the state handlers see, the auth extractor
//! (`extract`), the error mapping, the reply envelopes and builders, the catalogue handlers' kit
//! (`crud`, `fields`), an export's answer (`export`), the OpenAPI contract's completion and JSON
//! errors (`contract`) and the router's finish (`serve`). Nothing here names an area.

pub mod contract;
pub mod crud;
pub mod dto;
pub mod error;
pub mod export;
pub mod extract;
pub mod fields;
pub mod reply;
pub mod serve;
pub mod state;
