//! Bindings printed by snmpc's commands: as net-snmp's tools print them
//! ([`snmp_client::text`], the library's printer), or a JSON object a line under `--json`.

use snmp_ber::Oid;
use snmp_client::{Value, VarBind};
use snmp_smi::mib::Presentation;

pub use snmp_client::text::{self, name_of, Naming, Output, Strings};

/// Prints bindings as net-snmp's text ([`text::Printer`]), or as JSON objects (`--json`).
#[derive(Clone, Copy)]
pub struct Printer<'m> {
    /// The text: the `-O` options and the modules names come from.
    pub text: text::Printer<'m>,
    /// JSON lines (`--json`) instead of text.
    pub json: bool,
}

impl Printer<'_> {
    /// An OID as the options name it.
    pub fn name(&self, oid: Oid<'_>) -> String {
        self.text.name(oid)
    }

    /// A value as the options show it ([`text::Printer::value`]).
    pub fn value(&self, v: &Value, presentation: Option<&Presentation>) -> String {
        self.text.value(v, presentation)
    }

    /// One binding, a line without its newline: net-snmp's text, or its JSON object.
    pub fn line(&self, vb: &VarBind) -> String {
        match self.json {
            true => self.json_value(vb).to_string(),
            false => self.text.line(vb),
        }
    }

    /// One binding as a JSON object: `snmpc decode --json`'s `oid`, `type` and `value`, with
    /// the OID's `name` and the value's `text` as `-Oqv` prints it.
    fn json(&self, vb: &VarBind, presentation: Option<&Presentation>) -> serde_json::Value {
        let wire = vb
            .value
            .to_wire()
            .ok()
            .map(|value| snmp_messages::snmpv2_pdu::VarBind {
                name: snmp_messages::snmpv2_smi::ObjectName(vb.oid.as_oid()),
                value,
            });
        let mut obj = match wire {
            Some(w) => crate::view::v2_binding(&w),
            // Exceptions have no SET form: shown as decode shows them.
            None => serde_json::json!({
                "oid": vb.oid.to_string(),
                "type": match vb.value {
                    Value::NoSuchObject => "noSuchObject",
                    Value::NoSuchInstance => "noSuchInstance",
                    _ => "endOfMibView",
                },
                "value": null,
            }),
        };
        let quick = text::Printer {
            output: Output {
                quick: true,
                ..self.text.output
            },
            mibs: self.text.mibs,
        };
        if let Some(map) = obj.as_object_mut() {
            map.insert("name".into(), self.text.name(vb.oid.as_oid()).into());
            map.insert("text".into(), quick.value(&vb.value, presentation).into());
        }
        obj
    }

    /// One binding as the JSON object `--json` prints (see [`Printer::line`]).
    pub fn json_value(&self, vb: &VarBind) -> serde_json::Value {
        let presentation = self.text.mibs.and_then(|m| {
            let arcs: Vec<u32> = vb.oid.as_oid().arcs().collect();
            m.presentation(&arcs)
        });
        self.json(vb, presentation)
    }
}
