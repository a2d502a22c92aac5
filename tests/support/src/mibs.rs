//! MIB modules written for the tests.

/// A module of conventions defined on other conventions (`StateB`, on the enumeration
/// `StateA`; `NameB`, on `NameA` and its DISPLAY-HINT; `NameC`, on DisplayString with a size
/// of its own) and plain type assignments naming a convention (`PlainA`, `PlainN`), with an
/// object of each under enterprises.99999 (`objB` .1, `objNameB` .2, `objNameC` .3,
/// `objPlainA` .4, `objPlainN` .5), and an enumeration labelled with words net-snmp's parser
/// takes for keywords (`objKeywords` .6: `current`, `read-only`, `Counter` and `deprecated`
/// among `up` and `down`). RFC 2579 wants a base type in a convention's SYNTAX; MIBs write
/// these anyway, and net-snmp reads them for the base type alone.
pub const NESTED_CONVENTIONS: &str = r#"NESTED-TC-MIB DEFINITIONS ::= BEGIN
IMPORTS
    MODULE-IDENTITY, OBJECT-TYPE, enterprises FROM SNMPv2-SMI
    TEXTUAL-CONVENTION, DisplayString FROM SNMPv2-TC;

nestedTc MODULE-IDENTITY
    LAST-UPDATED "202612070000Z"
    ORGANIZATION "snmp-codegen tests"
    CONTACT-INFO "none"
    DESCRIPTION "Conventions defined on conventions."
    ::= { enterprises 99999 }

StateA ::= TEXTUAL-CONVENTION
    STATUS current
    DESCRIPTION "An enumeration."
    SYNTAX INTEGER { up(1), down(2) }

StateB ::= TEXTUAL-CONVENTION
    STATUS current
    DESCRIPTION "StateA again."
    SYNTAX StateA

NameA ::= TEXTUAL-CONVENTION
    DISPLAY-HINT "255a"
    STATUS current
    DESCRIPTION "Text."
    SYNTAX OCTET STRING (SIZE (0..64))

NameB ::= TEXTUAL-CONVENTION
    STATUS current
    DESCRIPTION "NameA again."
    SYNTAX NameA

NameC ::= TEXTUAL-CONVENTION
    STATUS current
    DESCRIPTION "A shorter DisplayString."
    SYNTAX DisplayString (SIZE (0..32))

PlainA ::= StateA

PlainN ::= NameA

objB OBJECT-TYPE
    SYNTAX StateB
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A StateB."
    ::= { nestedTc 1 }

objNameB OBJECT-TYPE
    SYNTAX NameB
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A NameB."
    ::= { nestedTc 2 }

objNameC OBJECT-TYPE
    SYNTAX NameC
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A NameC."
    ::= { nestedTc 3 }

objPlainA OBJECT-TYPE
    SYNTAX PlainA
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A PlainA."
    ::= { nestedTc 4 }

objPlainN OBJECT-TYPE
    SYNTAX PlainN
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A PlainN."
    ::= { nestedTc 5 }

objKeywords OBJECT-TYPE
    SYNTAX INTEGER { up(1), current(2), read-only(3), Counter(4), deprecated(5), down(6) }
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Labels that are keywords."
    ::= { nestedTc 6 }

END
"#;
