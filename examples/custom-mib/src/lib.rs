//! An enterprise MIB compiled from build.rs: `ACME-WIDGET-MIB` becomes the module
//! [`acme_widget_mib`] with an object registry, enums, bit sets, typed scalars and table rows.
//!
//! ```
//! use custom_mib::acme_widget_mib::{self, WidgetEntry};
//! use snmp_mib::Row;
//!
//! // An instance OID names its object and, after it, the row's INDEX.
//! let (object, instance) = acme_widget_mib::lookup(&[1, 3, 6, 1, 4, 1, 32473, 7, 1, 3, 1, 2, 42]).unwrap();
//! assert_eq!(object.name, "ACME-WIDGET-MIB::widgetName");
//! assert_eq!(WidgetEntry::decode_index(instance).unwrap().widget_index, 42);
//! ```

include!(concat!(env!("OUT_DIR"), "/mibs.rs"));
