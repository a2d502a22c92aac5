//! A manager's SETs from the generated types (snmp-client's `set_scalars`, `create_row`,
//! `set_columns`) against the example's standalone agent: the values land as typed, a row is
//! created through RowStatus in one call, and a value outside its SYNTAX is refused before it
//! is sent.

mod common;

use common::*;
use enterprise_agent::snmp_codegen_example_mib::{
    ExampleJobEntry, ExampleJobEntryIndex, ExampleJobPriority, ExampleObjectsScalars,
};
use snmp_client::{ClientError, Credentials, Options, Session, Value};
use snmp_mib::{MibError, Row};

#[test]
fn typed_sets_from_the_generated_rows_and_scalars() {
    let Some(tools) = Tools::find() else { return };
    let (_agent, target, _dir) = standalone(&tools, &[]);
    let mut s = Session::new(
        target.parse().unwrap(),
        Credentials::V2c(b"private".to_vec()),
        Options::default(),
    )
    .unwrap();

    // A scalar.
    let scalars = ExampleObjectsScalars {
        example_description: Some("set typed".into()),
        ..Default::default()
    };
    s.set_scalars(&scalars, &[2]).unwrap();
    let desc: snmp_ber::OidBuf = format!("{}.2.0", &P[1..]).parse().unwrap();
    assert_eq!(
        s.get(std::slice::from_ref(&desc)).unwrap()[0]
            .value
            .as_str(),
        Some("set typed")
    );

    // A row created through RowStatus in one SET, then a column changed.
    let mut job = ExampleJobEntry::new(ExampleJobEntryIndex {
        example_job_index: 40,
    });
    job.example_job_name = Some("typed".into());
    job.example_job_priority = Some(ExampleJobPriority::High);
    let sent = s.create_row(&job).unwrap();
    assert_eq!(sent.len(), 3, "name, priority, RowStatus: {sent:?}");
    let status: snmp_ber::OidBuf = format!("{}.4.1.6.40", &P[1..]).parse().unwrap();
    assert_eq!(
        s.get(std::slice::from_ref(&status)).unwrap()[0].value,
        Value::Integer(1)
    );
    job.example_job_priority = Some(ExampleJobPriority::Low);
    s.set_columns(&job, &[3]).unwrap();
    let priority: snmp_ber::OidBuf = format!("{}.4.1.3.40", &P[1..]).parse().unwrap();
    assert_eq!(
        s.get(std::slice::from_ref(&priority)).unwrap()[0]
            .value
            .as_i32(),
        Some(1)
    );

    // Outside the SYNTAX (SIZE (1..32)), a read-only column, a column with no value: refused
    // here, nothing sent.
    let sent_before = s.stats().sent;
    job.example_job_name = Some("x".repeat(40));
    let e = s.set_columns(&job, &[2]).unwrap_err();
    assert!(
        matches!(
            &e,
            ClientError::Table(MibError::OutOfRange {
                object: "SNMP-CODEGEN-EXAMPLE-MIB::exampleJobName",
                ..
            })
        ),
        "{e}"
    );
    assert!(
        s.set_columns(&job, &[4]).is_err(),
        "exampleJobRuns is read-only"
    );
    assert!(
        s.set_columns(&job, &[5]).is_err(),
        "exampleJobEnabled has no value"
    );
    assert_eq!(s.stats().sent, sent_before);
}
