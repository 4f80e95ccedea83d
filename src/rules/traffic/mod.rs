//! Rules of the `traffic` area, one file per rule; `RULES` registers them.
//! `model` is shared by them: pods selected by a Service, EndpointSlices (else
//! Endpoints) and Ingress backends; with `ports` (target ports), `near_miss` (selector
//! typos) and `hops` (the chain of hops a finding cites). When an
//! Ingress routes to a broken Service, the Ingress finding carries the chain and the
//! Service-level rules stay quiet for it (one finding per broken chain).

pub mod hops;
pub mod ingress_backend;
pub mod ingress_chain;
pub mod ingress_class;
pub mod model;
pub mod near_miss;
pub mod no_ready_endpoints;
pub mod ports;
pub mod protocol_mismatch;
pub mod selector_no_match;
pub mod selectorless;
pub mod target_port;
pub mod users;

use crate::rules::RuleMeta;

/// Every rule of this area, in the order `kdiag rules` lists them.
pub static RULES: &[&RuleMeta] = &[
    &ingress_backend::INGRESS_BACKEND_MISSING,
    &ingress_chain::INGRESS_NO_READY_BACKEND,
    &ingress_class::INGRESS_CLASS_MISSING,
    &selector_no_match::SELECTOR_NO_MATCH,
    &no_ready_endpoints::NO_READY_ENDPOINTS,
    &target_port::TARGET_PORT_UNRESOLVED,
    &protocol_mismatch::PROTOCOL_MISMATCH,
    &selectorless::SELECTORLESS_NO_ENDPOINTS,
];
