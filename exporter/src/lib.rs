//! snmp-exporter: a Prometheus exporter for SNMP that is a drop-in for snmp_exporter. It
//! reads the same snmp.yml (0.30's format, and the ≤ 0.22 format with a warning), answers
//! the same HTTP endpoints and renders the same samples, over snmp-client's sessions.
//!
//! The pipeline, a folder or file a stage: [`config`] (snmp.yml read, checked, compiled),
//! [`scrape`] (a target's modules walked and got), [`render`] (bindings into samples, and the
//! text format), [`exporter`] (a request's parameters, limits, own metrics), [`server`] (HTTP).
//!
//! ```
//! use snmp_exporter::config::{Config, LoadOptions};
//! use snmp_exporter::exporter::{Exporter, Request, Settings};
//!
//! let yaml = "auths:\n  public_v2:\n    version: 2\nmodules:\n  system:\n    walk: [1.3.6.1.2.1.1.3]\n    metrics:\n    - name: sysUpTime\n      oid: 1.3.6.1.2.1.1.3\n      type: gauge\n      help: The time since the agent started\n";
//! let config = Config::from_yaml("snmp.yml", yaml, &LoadOptions::default())?;
//! let exporter = Exporter::with_config(Settings::default(), config);
//! let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
//! // A request that names no target is refused at once, as upstream refuses it.
//! let reply = rt.block_on(exporter.scrape(&Request::default()));
//! assert_eq!((reply.status, reply.body.as_str()), (400, "'target' parameter must be specified once\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod config;
pub mod exporter;
pub mod generate;
pub mod own_metrics;
pub mod render;
pub mod scrape;
pub mod server;
pub mod ty;
pub mod web_config;
