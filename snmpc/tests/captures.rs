//! `snmpc decode --pcap` on captures that real tools write and real networks carry, each made
//! here at test time: frames cut short by a snap length (pcap and pcapng), a file cut off
//! inside a frame, SNMP datagrams in IPv4 and IPv6 fragments. Nothing is lost in silence: the
//! whole frames decode, the others are errors at their frame numbers, and stderr sums up every
//! frame.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_test_support::hostile::v2c_response;

/// A v2c Response of `strings` bindings of 300 octets each (request-id 77).
fn response(strings: usize) -> Vec<u8> {
    let oid: OidBuf = "1.3.6.1.2.1.1.1.0".parse().unwrap();
    let bindings: Vec<(OidBuf, Value)> = (0..strings)
        .map(|k| {
            (
                oid.clone(),
                Value::OctetString(vec![b'a' + (k % 26) as u8; 300].into()),
            )
        })
        .collect();
    v2c_response(b"public", 77, 0, &bindings)
}

fn udp(payload: &[u8]) -> Vec<u8> {
    let mut u = Vec::new();
    u.extend(161u16.to_be_bytes());
    u.extend(50000u16.to_be_bytes());
    u.extend((8 + payload.len() as u16).to_be_bytes());
    u.extend([0, 0]); // no checksum (IPv4 allows it; the reader does not check)
    u.extend(payload);
    u
}

fn checksum(header: &[u8]) -> u16 {
    let mut sum: u32 = header
        .chunks(2)
        .map(|c| u32::from(u16::from_be_bytes([c[0], c[1]])))
        .sum();
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// An IPv4 packet (or fragment: `offset` in octets, a multiple of 8, and more to come).
fn ipv4(ip_payload: &[u8], id: u16, offset: usize, more: bool) -> Vec<u8> {
    let mut h = vec![0x45, 0];
    h.extend((20 + ip_payload.len() as u16).to_be_bytes());
    h.extend(id.to_be_bytes());
    h.extend(((u16::from(more) << 13) | (offset / 8) as u16).to_be_bytes());
    h.extend([64, 17, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1]);
    let sum = checksum(&h);
    h[10..12].copy_from_slice(&sum.to_be_bytes());
    h.extend(ip_payload);
    h
}

/// An IPv6 packet carrying a fragment (`offset` in octets, a multiple of 8).
fn ipv6_fragment(part: &[u8], id: u32, offset: usize, more: bool) -> Vec<u8> {
    let mut p = vec![0x60, 0, 0, 0];
    p.extend((8 + part.len() as u16).to_be_bytes());
    p.extend([44, 64]); // next header: Fragment; hop limit
    let mut loopback = [0u8; 16];
    loopback[15] = 1;
    p.extend(loopback);
    p.extend(loopback);
    p.extend([17, 0]);
    p.extend((((offset / 8) as u16) << 3 | u16::from(more)).to_be_bytes());
    p.extend(id.to_be_bytes());
    p.extend(part);
    p
}

/// A classic pcap of raw-IP frames (link type 101) under `snaplen`: each frame cut to it.
fn pcap(frames: &[Vec<u8>], snaplen: u32) -> Vec<u8> {
    pcap_on(101, frames, snaplen)
}

/// A classic pcap of frames on link type `link` under `snaplen`.
fn pcap_on(link: u32, frames: &[Vec<u8>], snaplen: u32) -> Vec<u8> {
    let mut f = 0xa1b2_c3d4u32.to_le_bytes().to_vec();
    f.extend(2u16.to_le_bytes());
    f.extend(4u16.to_le_bytes());
    f.extend([0u8; 8]);
    f.extend(snaplen.to_le_bytes());
    f.extend(link.to_le_bytes());
    for (k, frame) in frames.iter().enumerate() {
        let captured = frame.len().min(snaplen as usize);
        f.extend((k as u32).to_le_bytes());
        f.extend(0u32.to_le_bytes());
        f.extend((captured as u32).to_le_bytes());
        f.extend((frame.len() as u32).to_le_bytes());
        f.extend(&frame[..captured]);
    }
    f
}

/// A pcapng of raw-IP frames, each cut to `snaplen`.
fn pcapng(frames: &[Vec<u8>], snaplen: u32) -> Vec<u8> {
    let block = |kind: u32, body: &[u8]| {
        let len = (12 + body.len()) as u32;
        let mut b = kind.to_le_bytes().to_vec();
        b.extend(len.to_le_bytes());
        b.extend(body);
        b.extend(len.to_le_bytes());
        b
    };
    let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
    shb.extend(1u16.to_le_bytes());
    shb.extend(0u16.to_le_bytes());
    shb.extend((-1i64).to_le_bytes());
    let mut f = block(0x0a0d_0d0a, &shb);
    let mut idb = 101u16.to_le_bytes().to_vec();
    idb.extend([0, 0]);
    idb.extend(snaplen.to_le_bytes());
    f.extend(block(1, &idb));
    for frame in frames {
        let captured = frame.len().min(snaplen as usize);
        let mut epb = vec![0u8; 12];
        epb.extend((captured as u32).to_le_bytes());
        epb.extend((frame.len() as u32).to_le_bytes());
        epb.extend(&frame[..captured]);
        while !epb.len().is_multiple_of(4) {
            epb.push(0);
        }
        f.extend(block(6, &epb));
    }
    f
}

fn decode(name: &str, bytes: &[u8]) -> (String, String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    snmpc(&["decode", "--json", "--pcap", path.to_str().unwrap()])
}

fn frames_of(out: &str) -> Vec<(u64, bool)> {
    out.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["frame"].as_u64().unwrap(), v.get("error").is_none())
        })
        .collect()
}

/// Three frames: small, large (cut by a snap length of 96), small.
fn three_frames() -> Vec<Vec<u8>> {
    let small = v2c_response(b"public", 1, 0, &[]);
    [small.clone(), response(1), small]
        .iter()
        .map(|m| ipv4(&udp(m), 1, 0, false))
        .collect()
}

#[test]
fn frames_cut_by_a_snap_length_are_reported_and_the_others_decode() {
    for (name, file) in [
        ("cut.pcap", pcap(&three_frames(), 96)),
        ("cut.pcapng", pcapng(&three_frames(), 96)),
    ] {
        let (out, err, code) = decode(name, &file);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert_eq!(
            frames_of(&out),
            [(1, true), (2, false), (3, true)],
            "{name}: {out}"
        );
        let wire = three_frames()[1].len();
        let said = format!("cut short by the capture (its snap length): 96 of {wire} octets");
        assert!(out.contains(&said), "{out}");
        assert!(
            err.contains("3 frames: 2 SNMP, 1 cut short"),
            "{name}: {err}"
        );
    }
}

/// A UDP frame whose IPv4 header claims more octets than the frame holds (tcpdump's
/// `ip-snmp-leftshift-unsigned` capture is one): said, with why, and not taken for another
/// protocol; the frames around it decode.
#[test]
fn a_udp_frame_with_an_ip_length_past_its_end_is_said() {
    let mut frames = three_frames();
    frames[1] = ipv4(&udp(&v2c_response(b"public", 2, 0, &[])), 1, 0, false);
    frames[1][2..4].copy_from_slice(&34817u16.to_be_bytes());
    let (out, err, code) = decode("length.pcap", &pcap(&frames, 65535));
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(frames_of(&out), [(1, true), (2, false), (3, true)], "{out}");
    assert!(out.contains("a UDP frame whose headers are wrong"), "{out}");
    assert!(out.contains("34817"), "{out}");
    assert!(
        err.contains("3 frames: 2 SNMP, 1 UDP with wrong headers"),
        "{err}"
    );
}

#[test]
fn a_capture_cut_off_inside_a_frame_keeps_the_frames_before() {
    let whole = pcap(&three_frames(), 65535);
    let cut = &whole[..whole.len() - 10];
    let (out, err, code) = decode("end.pcap", cut);
    assert_eq!(code, 1);
    assert_eq!(frames_of(&out), [(1, true), (2, true), (3, false)], "{out}");
    assert!(out.contains("the capture ends inside this frame"), "{out}");
    assert!(err.contains("cut off inside the file"), "{err}");
    let whole = pcapng(&three_frames(), 65535);
    let (out, _, code) = decode("end.pcapng", &whole[..whole.len() - 10]);
    assert_eq!(code, 1);
    assert_eq!(frames_of(&out), [(1, true), (2, true), (3, false)], "{out}");
}

#[test]
fn snmp_in_ip_fragments_is_reassembled() {
    let message = response(11);
    assert!(message.len() > 3000, "{} octets", message.len());
    let datagram = udp(&message);
    let parts: Vec<(usize, &[u8])> = datagram
        .chunks(1480)
        .enumerate()
        .map(|(k, c)| (k * 1480, c))
        .collect();
    assert_eq!(parts.len(), 3);
    let last = parts.len() - 1;
    let v4: Vec<Vec<u8>> = parts
        .iter()
        .enumerate()
        .map(|(k, (at, c))| ipv4(c, 4242, *at, k < last))
        .collect();
    let v6: Vec<Vec<u8>> = parts
        .iter()
        .enumerate()
        .map(|(k, (at, c))| ipv6_fragment(c, 4242, *at, k < last))
        .collect();
    for (name, frames) in [("v4.pcap", v4), ("v6.pcap", v6)] {
        let (out, err, code) = decode(name, &pcap(&frames, 65535));
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert_eq!(frames_of(&out), [(3, true)], "{name}: {out}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["varbinds"].as_array().unwrap().len(), 11, "{name}");
        assert!(
            err.contains("3 frames: 1 SNMP, 3 IP fragments reassembled"),
            "{name}: {err}"
        );
        // The last fragment missing: reported at the first fragment's frame, not dropped.
        let (out, err, code) = decode(name, &pcap(&frames[..2], 65535));
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert_eq!(frames_of(&out), [(1, false)], "{name}: {out}");
        assert!(out.contains("2 fragment(s) never completed"), "{out}");
    }
}

#[test]
fn frames_that_are_not_snmp_are_counted() {
    let mut frames = three_frames();
    // A TCP segment and a datagram on another port.
    let mut tcp = ipv4(&[0u8; 20], 9, 0, false);
    tcp[9] = 6;
    frames.push(tcp);
    let mut other = udp(b"not snmp");
    other[0..2].copy_from_slice(&53u16.to_be_bytes());
    other[2..4].copy_from_slice(&53u16.to_be_bytes());
    frames.push(ipv4(&other, 10, 0, false));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.pcap");
    std::fs::write(&path, pcap(&frames, 65535)).unwrap();
    let p = path.to_str().unwrap();
    let (out, err, code) = snmpc(&["decode", "--json", "--pcap", p, "--port", "161"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 3);
    assert!(
        err.contains("5 frames: 3 SNMP, 1 UDP on other ports, 1 not UDP"),
        "{err}"
    );
}

/// The three frames' IPv4 packets under each link-layer header the capture tools write, as
/// (pcap link type, name, frames).
fn on_links() -> Vec<(u32, &'static str, Vec<Vec<u8>>)> {
    let ip = three_frames();
    let wrap = |head: &dyn Fn(&[u8]) -> Vec<u8>| -> Vec<Vec<u8>> {
        ip.iter()
            .map(|p| {
                let mut f = head(p);
                f.extend(p);
                f
            })
            .collect()
    };
    let mac = [0x02, 0, 0, 0, 0, 1];
    // Ethernet with an 802.1Q tag (VLAN 42), padded to the 60-octet minimum as a NIC sends it.
    let ethernet = wrap(&|_| {
        let mut h = [mac, mac].concat();
        h.extend([0x81, 0x00, 0x00, 42, 0x08, 0x00]);
        h
    })
    .into_iter()
    .map(|mut f| {
        f.resize(f.len().max(60), 0);
        f
    })
    .collect();
    // Linux cooked v1 (tcpdump -i any before 4.99): packet type, ARPHRD, address length,
    // 8 address octets, protocol.
    let sll = wrap(&|_| {
        let mut h = vec![0, 0, 0, 1, 0, 6];
        h.extend(mac);
        h.extend([0, 0, 0x08, 0x00]);
        h
    });
    // Linux cooked v2 (tcpdump -i any since 4.99): protocol, reserved, interface index,
    // ARPHRD, packet type, address length, 8 address octets.
    let sll2 = wrap(&|_| {
        let mut h = vec![0x08, 0x00, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6];
        h.extend(mac);
        h.extend([0, 0]);
        h
    });
    // BSD loopback: the address family (AF_INET = 2) in the capturing host's order.
    let null = wrap(&|_| 2u32.to_le_bytes().to_vec());
    vec![
        (1, "ethernet", ethernet),
        (113, "linux-sll", sll),
        (276, "linux-sll2", sll2),
        (0, "bsd-null", null),
    ]
}

#[test]
fn every_link_layer_the_capture_tools_write_is_read() {
    for (link, name, frames) in on_links() {
        let (out, err, code) = decode(&format!("{name}.pcap"), &pcap_on(link, &frames, 65535));
        assert_eq!(code, 0, "{name}: {out}{err}");
        let want = vec![(1, true), (2, true), (3, true)];
        assert_eq!(frames_of(&out), want, "{name}: {out}{err}");
        assert!(err.contains("3 frames: 3 SNMP\n"), "{name}: {err}");
    }
}

/// A pcap header whose link type field says each frame ends with a frame check sequence
/// (bit 28, and its length in 16-bit words above it: tcpdump's fuzzed SNMP captures have
/// `0x30000001`): Ethernet, read without the FCS.
#[test]
fn ethernet_with_a_frame_check_sequence_is_read() {
    let (_, _, ethernet) = on_links().remove(0);
    let with_fcs: Vec<Vec<u8>> = ethernet
        .into_iter()
        .map(|mut f| {
            f.extend([0xde, 0xad, 0xbe, 0xef]);
            f
        })
        .collect();
    let field = 1 | 1 << 28 | 2 << 29;
    let (out, err, code) = decode("fcs.pcap", &pcap_on(field, &with_fcs, 65535));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(frames_of(&out), [(1, true), (2, true), (3, true)], "{err}");
    assert!(err.contains("3 frames: 3 SNMP\n"), "{err}");
}

#[test]
fn frames_on_a_link_not_read_are_reported_by_link_type() {
    // IEEE 802.11 frames: counted and named, not taken for "not UDP".
    let (out, err, code) = decode("wifi.pcap", &pcap_on(105, &three_frames(), 65535));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "");
    assert!(
        err.contains("3 frames: 0 SNMP, 3 on a link not read (link type 105, IEEE802_11)"),
        "{err}"
    );
}

#[test]
fn a_damaged_block_in_the_middle_is_skipped_and_the_frames_after_it_are_read() {
    // Five whole frames; the third's length fields overwritten (pcapng: the block's length;
    // pcap: the record's captured length), so that block or record cannot be read.
    let frames: Vec<Vec<u8>> = (0..5)
        .map(|k| {
            ipv4(
                &udp(&v2c_response(b"public", k, 0, &[])),
                k as u16,
                0,
                false,
            )
        })
        .collect();
    let ng = pcapng(&frames, 65535);
    let first = 28 + 20; // the section and interface blocks
    let block = ng[first + 4..first + 8]
        .try_into()
        .map(u32::from_le_bytes)
        .unwrap() as usize;
    let third = first + 2 * block;
    let mut broken_ng = ng.clone();
    broken_ng[third + 4..third + 8].copy_from_slice(&0x7fff_fff0u32.to_le_bytes());
    let classic = pcap(&frames, 65535);
    let record = 16 + frames[0].len();
    let third_record = 24 + 2 * record;
    let mut broken_pcap = classic.clone();
    broken_pcap[third_record + 8..third_record + 12].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    for (name, file, unit, skipped) in [
        ("damaged.pcapng", broken_ng, "block", block),
        ("damaged.pcap", broken_pcap, "record", record),
    ] {
        let (out, err, code) = decode(name, &file);
        assert_eq!(code, 1, "{name}: {out}{err}");
        // Frames 1, 2 read; the damage said before the next frame; frames after it read.
        assert_eq!(
            frames_of(&out),
            [(1, true), (2, true), (3, false), (3, true), (4, true)],
            "{name}: {out}"
        );
        let at = if unit == "block" { third } else { third_record };
        let said = format!(
            "before this frame, octets {at}..{} of the file could not be read",
            at + skipped
        );
        assert!(out.contains(&said), "{name}: {out}");
        assert!(
            out.contains(&format!(
                "reading went on at the next {unit} that reads whole"
            )),
            "{out}"
        );
        assert!(
            err.contains(&format!(
                "4 frames: 4 SNMP, {skipped} octets unreadable and skipped"
            )),
            "{name}: {err}"
        );
    }
}

#[test]
fn overlapping_fragments_with_other_octets_are_said() {
    let datagram = udp(&response(4));
    let (a, b) = datagram.split_at(800);
    // A second copy of the first 800 octets' last 96, with other octets, sent again at 704.
    let mut other = a[704..].to_vec();
    other.iter_mut().for_each(|o| *o ^= 0xff);
    let same = a[704..].to_vec();
    for (copy, conflict) in [(other, true), (same, false)] {
        let frames = vec![
            ipv4(a, 9, 0, true),
            ipv4(&copy, 9, 704, true),
            ipv4(b, 9, 800, false),
        ];
        let (out, err, _) = decode("overlap.pcap", &pcap(&frames, 65535));
        assert_eq!(frames_of(&out).len(), 1, "{out}{err}");
        let said = "frame 2: an IP fragment overlaps an earlier fragment of the datagram begun \
                    at frame 1 with other octets; the later octets are used";
        assert_eq!(err.contains(said), conflict, "{err}");
        assert_eq!(
            err.contains("1 IP fragments overlapping with other octets"),
            conflict,
            "{err}"
        );
    }
}
