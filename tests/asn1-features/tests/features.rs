//! The generator's output for asn1/Features.asn1, compiled from build.rs: encodings worked out
//! from X.690 by hand, round trips, and the constraint checks.

use asn1_features::features_automatic::{Point, Shape};
use asn1_features::features_explicit::*;
use proptest::prelude::*;
use snmp_ber::{Decode, DecodeErrorKind, Encode, SequenceOf};

fn record_bytes() -> Vec<u8> {
    // id [0] EXPLICIT INTEGER 300, name [1] IMPLICIT "ab", active omitted (DEFAULT),
    // colour blue(5), level high(10), flags [2] EXPLICIT BIT STRING 0b11 (6 unused bits),
    // tags {1, 2}, extra [PRIVATE 100] "z", nested {x 3, y NULL}, choice s "q",
    // then an unknown extension addition [9] that must be skipped.
    let mut v = vec![];
    v.extend([0xa0, 0x04, 0x02, 0x02, 0x01, 0x2c]);
    v.extend([0x81, 0x02, b'a', b'b']);
    v.extend([0x0a, 0x01, 0x05]);
    v.extend([0x02, 0x01, 0x0a]);
    v.extend([0xa2, 0x04, 0x03, 0x02, 0x06, 0xc0]);
    v.extend([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
    v.extend([0xdf, 0x64, 0x01, b'z']);
    v.extend([0x30, 0x05, 0x02, 0x01, 0x03, 0x05, 0x00]);
    v.extend([0x84, 0x01, b'q']);
    let mut out = vec![0x30, v.len() as u8 + 3];
    out.extend(v);
    out.extend([0x89, 0x01, 0x00]);
    out
}

#[test]
fn record_decodes_every_construct() {
    let bytes = record_bytes();
    let r = Record::from_ber(&bytes).unwrap();
    assert_eq!(r.id, 300);
    assert_eq!(r.name, b"ab");
    assert_eq!(r.active, None, "DEFAULT TRUE left out");
    assert_eq!(r.colour, Some(Colour::Blue));
    assert_eq!(r.level, Level::HIGH);
    assert_eq!(r.level.name(), Some("high"));
    let flags = r.flags.unwrap().0;
    assert!(flags.bit(0) && flags.bit(1) && !flags.bit(2));
    assert_eq!(flags.bit_len(), 2);
    let tags: Vec<i64> = r.tags.iter().map(|t| t.unwrap().0).collect();
    assert_eq!(tags, [1, 2]);
    assert_eq!(r.extra, Some(&b"z"[..]));
    assert_eq!(r.nested.x, Small(3));
    assert_eq!(r.choice, RecordChoice::S(b"q"));
    // Re-encoding drops the unknown extension addition and is otherwise identical.
    let again = r.to_ber().unwrap();
    let mut expected = bytes.clone();
    expected.truncate(expected.len() - 3);
    expected[1] -= 3;
    assert_eq!(again, expected);
}

#[test]
fn enumerated_values_and_unknown_items() {
    assert_eq!(
        Colour::Green as i64,
        1,
        "unnumbered items take the next free value"
    );
    assert_eq!(
        Colour::from_ber(&[0x0a, 0x01, 0x01]).unwrap(),
        Colour::Green
    );
    let e = Colour::from_ber(&[0x0a, 0x01, 0x02]).unwrap_err();
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::UnknownEnumerated {
            found: 2,
            expected: "red(0), green(1), blue(5)"
        }
    );
}

#[test]
fn constraints_apply_through_references_and_tags() {
    // Level is INTEGER (1..limit) with named numbers: 11 is out of range.
    let e = Level::from_ber(&[0x02, 0x01, 0x0b]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 2 in Level: INTEGER value 11 out of range: expected 1..10"
    );
    // name is SIZE (1..8): an empty one (`81 00` in place of `81 02 'a' 'b'` at byte 8) fails.
    let mut bytes = record_bytes();
    assert_eq!(&bytes[8..12], &[0x81, 0x02, b'a', b'b']);
    bytes.splice(8..12, [0x81, 0x00]);
    bytes[1] -= 2;
    let e = Record::from_ber(&bytes).unwrap_err();
    assert_eq!(
        e.to_string(),
        "at byte 10 in Record.name: size 0 out of range: expected SIZE (1..8)"
    );
    // tags is SIZE (0..3): three elements decode, a fourth fails (counted only because six
    // octets a pair could hold more than three).
    for (n, ok) in [(3u8, true), (4, false)] {
        let mut bytes = record_bytes();
        assert_eq!(&bytes[24..26], &[0x30, 0x06]);
        let list: Vec<u8> = (1..=n).flat_map(|i| [0x02, 0x01, i]).collect();
        bytes.splice(24..32, [&[0x30, 3 * n][..], &list].concat());
        bytes[1] += 3 * n - 6;
        match Record::from_ber(&bytes) {
            Ok(r) => assert!(ok && r.tags.len() == 3, "{n} tags decoded"),
            Err(e) => assert_eq!(
                (ok, e.to_string()),
                (
                    false,
                    "at byte 26 in Record.tags: size 4 out of range: expected SIZE (0..3)".into()
                )
            ),
        }
    }
    // A Point's x is INTEGER (0..limit) with limit imported from the other module.
    let p = Point::from_ber(&[0x30, 0x06, 0x80, 0x01, 0x0b, 0x82, 0x01, 0x00]).unwrap_err();
    assert_eq!(
        p.to_string(),
        "at byte 4 in Point.x: INTEGER value 11 out of range: expected 0..10"
    );
}

#[test]
fn automatic_tags_number_components_and_alternatives() {
    // x [0] 4, y absent, c [2] green: AUTOMATIC tags are implicit.
    let bytes = [0x30, 0x06, 0x80, 0x01, 0x04, 0x82, 0x01, 0x01];
    let p = Point::from_ber(&bytes).unwrap();
    assert_eq!((p.x, p.y, p.c), (4, None, Colour::Green));
    assert_eq!(p.to_ber().unwrap(), bytes);
    // Shape: point is [0] (constructed), label [1].
    let s = Shape::from_ber(&[0x81, 0x02, b'h', b'i']).unwrap();
    assert_eq!(s, Shape::Label(b"hi"));
    let s = Shape::from_ber(&[0xa0, 0x06, 0x80, 0x01, 0x00, 0x82, 0x01, 0x00]).unwrap();
    assert_eq!(
        s,
        Shape::Point(Point {
            x: 0,
            y: None,
            c: Colour::Red
        })
    );
}

#[test]
fn explicit_application_tag_on_a_type_and_open_type_binding() {
    let w = Wrapped::from_ber(&[0x65, 0x03, 0x0a, 0x01, 0x00]).unwrap();
    assert_eq!(w.0, Colour::Red);
    assert_eq!(Wrapped::TAG, &[0x65]);
    assert_eq!(w.to_ber().unwrap(), [0x65, 0x03, 0x0a, 0x01, 0x00]);
    // Envelope.body is bound to Record; raw stays an ANY.
    let oid = [0x06, 0x03, 0x2b, 0x06, 0x01];
    let mut bytes = vec![];
    bytes.extend(oid);
    let mut record = record_bytes();
    record.truncate(record.len() - 3);
    record[1] -= 3;
    bytes.extend(&record);
    bytes.extend([0x04, 0x01, b'!']);
    let mut env = vec![0x30, bytes.len() as u8];
    env.extend(bytes);
    let e = Envelope::from_ber(&env).unwrap();
    assert_eq!(e.body.id, 300);
    assert_eq!(e.raw.raw(), &[0x04, 0x01, b'!']);
    assert_eq!(e.to_ber().unwrap(), env);
}

#[test]
fn object_identifier_values() {
    assert_eq!(BASE.to_string(), "1.3.6.1.4.1.99999");
    assert_eq!(CHILD.to_string(), "1.3.6.1.4.1.99999.7");
    assert_eq!(LIMIT, 10);
}

proptest! {
    #[test]
    fn points_round_trip(x in 0u32..=10, y in proptest::option::of(0u32..=10), c in 0usize..3) {
        let c = [Colour::Red, Colour::Green, Colour::Blue][c];
        let p = Point { x, y, c };
        let bytes = p.to_ber().unwrap();
        prop_assert_eq!(p.encoded_len(), bytes.len());
        prop_assert_eq!(Point::from_ber(&bytes).unwrap(), p);
    }

    #[test]
    fn members_round_trip(ids in proptest::collection::vec(any::<u32>(), 0..4)) {
        let records: Vec<Record> = ids.iter().map(|&id| Record {
            id,
            name: b"n",
            active: Some(false),
            colour: None,
            level: Level::LOW,
            flags: None,
            tags: SequenceOf::from_slice(&[]),
            extra: None,
            nested: RecordNested { x: Small(0), y: () },
            choice: RecordChoice::N(-1),
        }).collect();
        let m = Members(SequenceOf::from_slice(&records));
        let bytes = m.to_ber().unwrap();
        prop_assert_eq!(m.encoded_len(), bytes.len());
        // SET OF (tag 0x31) is encoded in DER order: the records sorted by their encodings,
        // which DER then reads back.
        prop_assert_eq!(bytes[0], 0x31);
        let back = Members::from_der(&bytes).unwrap();
        prop_assert_eq!(back.0.len(), records.len());
        let key = |r: &Record| r.to_ber().unwrap();
        let mut want = records.clone();
        want.sort_by(|a, b| snmp_ber::der_set_order(&key(a), &key(b)));
        prop_assert!(back.0.iter().eq(want.into_iter().map(Ok)));
        prop_assert_eq!(back.to_ber().unwrap(), bytes);
    }
}

#[test]
fn a_list_over_its_size_is_not_encoded() {
    // tags is SIZE (0..3): four from a caller's slice are refused; three are written.
    let input = record_bytes();
    let mut r = Record::from_ber(&input).unwrap();
    let four = [1, 2, 3, 4].map(RecordTagsItem);
    r.tags = SequenceOf::from_slice(&four);
    match r.to_ber() {
        Err(snmp_ber::EncodeError::ConstraintViolation {
            component,
            found,
            expected,
        }) => assert_eq!((component, found, expected), ("Record.tags", 4, "0..3")),
        other => panic!("four tags encoded: {other:?}"),
    }
    r.tags = SequenceOf::from_slice(&four[..3]);
    let bytes = r.to_ber().unwrap();
    assert_eq!(Record::from_ber(&bytes).unwrap().tags.len(), 3);
}

#[test]
fn an_oid_registry_decodes_by_identifier_and_keeps_the_unknown() {
    // `child` (1.3.6.1.4.1.99999.7) names Record, `base` names Colour; anything else is kept.
    let record = record_bytes();
    match Bodies::decode(CHILD, &record).unwrap() {
        Bodies::Record(r) => assert_eq!(r.id, 300),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        Bodies::decode(BASE, &[0x0a, 0x01, 0x05]).unwrap(),
        Bodies::Colour(Colour::Blue)
    );
    let other = snmp_ber::Oid::from_ber(&[0x2b, 0x06]).unwrap();
    assert_eq!(
        Bodies::decode(other, &[0x05, 0x00]).unwrap(),
        Bodies::Unknown(other, &[0x05, 0x00])
    );
    // A listed identifier whose value does not decode is an error naming the identifier.
    let e = Bodies::decode(BASE, &[0x0a, 0x01, 0x02]).unwrap_err();
    assert_eq!(e.path(), "base.Colour");
}

#[test]
fn alternatives_retagging_one_sequence_share_its_decoder_and_encoder() {
    // Job { id 7, name "x" } under each identifier: start [0], stop [1], status [2] (through
    // Status-Job and Polled-Job); halt [4] is EXPLICIT, so a Job SEQUENCE inside.
    let job = Job {
        id: 7,
        name: Some(b"x"),
    };
    let contents = [0x02, 0x01, 0x07, 0x04, 0x01, b'x'];
    let cases = [
        (0xa0, Command::Start(job)),
        (0xa1, Command::Stop(job)),
        (0xa2, Command::Status(StatusJob(PolledJob(job)))),
    ];
    for (tag, want) in cases {
        let bytes = [&[tag, 0x06][..], &contents].concat();
        assert_eq!(Command::from_ber(&bytes).unwrap(), want, "{tag:#x}");
        assert_eq!(want.to_ber().unwrap(), bytes, "{tag:#x}");
        assert_eq!(want.encoded_len(), bytes.len());
    }
    let halt = [&[0xa4, 0x08, 0x30, 0x06][..], &contents].concat();
    assert_eq!(Command::from_ber(&halt).unwrap(), Command::Halt(job));
    assert_eq!(Command::Halt(job).to_ber().unwrap(), halt);
    let note = [0x83, 0x02, b'h', b'i'];
    assert_eq!(Command::from_ber(&note).unwrap(), Command::Note(b"hi"));
    assert_eq!(Command::Note(b"hi").to_ber().unwrap(), note);
    // An error inside a shared alternative names that alternative, by the identifier read.
    for (tag, name) in [(0xa0, "start"), (0xa1, "stop"), (0xa2, "status")] {
        let e = Command::from_ber(&[tag, 0x03, 0x02, 0x01, 0x0b]).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "at byte 4 in Command.{name}.id: INTEGER value 11 out of range: expected 0..10"
            )
        );
        // A length past the input: the TLV of the alternative itself.
        let e = Command::from_ber(&[tag, 0x09, 0x02, 0x01, 0x01]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("at byte 1 in Command.{name}: ")),
            "{e}"
        );
    }
    let e = Command::from_ber(&[0xa5, 0x00]).unwrap_err();
    assert!(
        e.to_string()
            .contains("expected one of [0] (0xa0), [1] (0xa1), [2] (0xa2), [3] (0x83), [4] (0xa4)"),
        "{e}"
    );
}

/// The labels of `t` and of every tree below it, depth first, through the lazy lists.
fn labels(t: &Tree<'_>, out: &mut Vec<u32>) -> Result<(), snmp_ber::DecodeError> {
    out.push(t.label);
    for child in t.children.iter() {
        labels(&child?, out)?;
    }
    Ok(())
}

#[test]
fn a_type_holding_lists_of_itself_decodes_through_them() {
    let leaf = |label| Tree {
        label,
        children: SequenceOf::from_slice(&[]),
    };
    let grandchildren = [leaf(4)];
    let children = [
        leaf(2),
        Tree {
            label: 3,
            children: SequenceOf::from_slice(&grandchildren),
        },
    ];
    let root = Tree {
        label: 1,
        children: SequenceOf::from_slice(&children),
    };
    let bytes = root.to_ber().unwrap();
    let back = Tree::from_ber(&bytes).unwrap();
    let mut seen = Vec::new();
    labels(&back, &mut seen).unwrap();
    assert_eq!(seen, [1, 2, 3, 4]);
    // A second loop over the same list type, as a program has many.
    let counts: Vec<usize> = back
        .children
        .iter()
        .map(|c| c.unwrap().children.len())
        .collect();
    assert_eq!(counts, [0, 1]);
    assert_eq!(back.to_ber().unwrap(), bytes);

    // The grandchild's label (the last INTEGER, before its empty list) out of range: the
    // lazy decode finds it where the walk reaches it, the validating decode at once, each
    // naming the path.
    let mut bad = bytes.clone();
    let at = bad.len() - 5;
    assert_eq!(bad[at..], [0x02, 0x01, 4, 0x30, 0x00]);
    bad[at + 2] = 11;
    let lazy = Tree::from_ber(&bad).unwrap();
    let err = labels(&lazy, &mut Vec::new()).unwrap_err();
    assert!(matches!(
        err.kind(),
        DecodeErrorKind::IntegerOutOfRange { found: 11, .. }
    ));
    assert_eq!(err.offset(), at + 2);
    let eager = Tree::from_ber_validated(&bad).unwrap_err();
    assert_eq!(eager.offset(), at + 2);
    assert!(eager.to_string().contains("children"), "{eager}");
}
