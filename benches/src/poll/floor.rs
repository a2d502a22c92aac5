//! The floor under a poller's CPU per request: the same GETs sent to the same simulated agents
//! from one socket, in batches (`sendmmsg`/`recvmmsg`, at most [`BATCH`] datagrams a call) with
//! as many in flight as the poller allows, each request a prebuilt datagram and each answer
//! received and not read. What is left is what the kernel (loopback delivery to the simulator
//! included) and the wake-ups cost this pattern on this machine: no client does less.

use std::io::{IoSlice, IoSliceMut};
use std::net::{SocketAddr, UdpSocket};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use nix::sys::socket::{
    recvmmsg, sendmmsg, ControlMessage, MsgFlags, MultiHeaders, SockaddrStorage,
};
use snmp_ber::OidBuf;

use super::PollRow;
use crate::process::{cpu_of, own_cpu};

/// Datagrams per system call at most, as the poller's.
const BATCH: usize = 32;

/// Room for one answer.
const SLOT: usize = 4096;

/// A BER TLV of one-octet identifier `tag` (contents under 65,536 octets).
fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match contents.len() {
        n if n < 0x80 => out.push(n as u8),
        n if n < 0x100 => out.extend([0x81, n as u8]),
        n => out.extend([0x82, (n >> 8) as u8, n as u8]),
    }
    out.extend(contents);
    out
}

/// A BER INTEGER of `n`: its fewest octets, the first one's top bit clear (it is not
/// negative).
fn integer(n: u32) -> Vec<u8> {
    let octets = n.to_be_bytes();
    let skip = octets.iter().take(3).take_while(|&&b| b == 0).count();
    let mut contents = octets[skip..].to_vec();
    if contents[0] & 0x80 != 0 {
        contents.insert(0, 0);
    }
    tlv(0x02, &contents)
}

/// A v2c request (community `public`, request-id 1) of PDU identifier `tag` (0xa0 GET, 0xa1
/// GETNEXT, 0xa5 GETBULK) whose second and third INTEGERs are `fields` (error-status and
/// error-index, or non-repeaters and max-repetitions), for `oids`, as BER: the datagram the
/// floors send again and again.
pub(crate) fn v2c_request(tag: u8, fields: (u32, u32), oids: &[OidBuf]) -> Vec<u8> {
    let bindings: Vec<u8> = oids
        .iter()
        .flat_map(|o| {
            let name = tlv(0x06, o.as_oid().as_ber());
            tlv(0x30, &[name, vec![0x05, 0x00]].concat())
        })
        .collect();
    let header = [integer(1), integer(fields.0), integer(fields.1)].concat();
    let pdu = tlv(tag, &[header, tlv(0x30, &bindings)].concat());
    let version_and_community = [&[0x02, 0x01, 0x01][..], &tlv(0x04, b"public")].concat();
    tlv(0x30, &[version_and_community, pdu].concat())
}

/// `rounds` rounds of `request` to every address of `agents`, at most `in_flight` outstanding:
/// the row (client `udp floor`), or why not. When no answer comes for two seconds, those
/// outstanding are counted as failed (lost) and the rest sent.
pub(super) fn measure(
    agents: &[SocketAddr],
    request: &[u8],
    (rounds, in_flight): (usize, usize),
    simulator: u32,
) -> Result<PollRow, String> {
    let socket = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    socket
        .set_read_timeout(Some(Duration::from_secs(2)))
        .map_err(|e| e.to_string())?;
    // Room for every answer in flight, as the poller's sockets have.
    nix::sys::socket::setsockopt(&socket, nix::sys::socket::sockopt::RcvBuf, &(4 << 20))
        .map_err(|e| format!("udp floor: SO_RCVBUF: {e}"))?;
    let total = agents.len() * rounds;
    let mut slots = vec![0u8; BATCH * SLOT];
    let gone = || "the simulator is gone".to_string();
    let (cpu0, sim0, started) = (
        own_cpu(),
        cpu_of(simulator).ok_or_else(gone)?,
        Instant::now(),
    );
    // `done`: answered or given up for lost (two seconds without any answer).
    let (mut sent, mut done, mut lost) = (0usize, 0usize, 0usize);
    while done < total {
        while sent < total && sent - done < in_flight {
            let room = (in_flight - (sent - done)).min(BATCH).min(total - sent);
            let to: Vec<SocketAddr> = (sent..sent + room)
                .map(|k| agents[k % agents.len()])
                .collect();
            sent += send_batch(&socket, &to, request).map_err(|e| format!("udp floor: {e}"))?;
        }
        match receive_batch(&socket, &mut slots) {
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                lost += sent - done;
                done = sent;
            }
            Err(e) => return Err(format!("udp floor: {e}")),
        }
    }
    let wall_s = started.elapsed().as_secs_f64();
    Ok(PollRow {
        client: "udp floor",
        version: "2c",
        op: "get",
        agents: agents.len(),
        requests: total as u64,
        bindings: 0,
        failed: lost as u64,
        cpu_s: own_cpu() - cpu0,
        simulator_cpu_s: Some(cpu_of(simulator).ok_or_else(gone)? - sim0),
        wall_s,
        p50_ms: 0.0,
        p99_ms: 0.0,
        per_call: None,
    })
}

/// Sends `request` to each of `to` in one call (blocking): how many went.
fn send_batch(socket: &UdpSocket, to: &[SocketAddr], request: &[u8]) -> std::io::Result<usize> {
    let mut headers = MultiHeaders::<SockaddrStorage>::preallocate(to.len(), None);
    let slices: Vec<[IoSlice<'_>; 1]> = to.iter().map(|_| [IoSlice::new(request)]).collect();
    let addrs: Vec<Option<SockaddrStorage>> =
        to.iter().map(|a| Some(SockaddrStorage::from(*a))).collect();
    let none: [ControlMessage<'_>; 0] = [];
    let sent = sendmmsg(
        socket.as_raw_fd(),
        &mut headers,
        slices.iter(),
        addrs,
        none,
        MsgFlags::empty(),
    )?;
    Ok(sent.count())
}

/// Waits for one datagram, then takes what else is queued, up to [`BATCH`]: how many.
fn receive_batch(socket: &UdpSocket, slots: &mut [u8]) -> std::io::Result<usize> {
    let mut headers = MultiHeaders::<SockaddrStorage>::preallocate(BATCH, None);
    let mut slices: Vec<[IoSliceMut<'_>; 1]> = slots
        .chunks_mut(SLOT)
        .map(|slot| [IoSliceMut::new(slot)])
        .collect();
    let received = recvmmsg(
        socket.as_raw_fd(),
        &mut headers,
        slices.iter_mut(),
        MsgFlags::MSG_WAITFORONE,
        None,
    )?;
    Ok(received.count())
}

#[cfg(test)]
mod tests {
    use snmp_ber::Decode;
    use snmp_messages::community_based_snmpv2::Message;
    use snmp_messages::snmpv2_pdu::Pdus;

    use super::*;

    #[test]
    fn the_prebuilt_request_is_a_v2c_get_of_the_oids() {
        let oids: Vec<OidBuf> = ["1.3.6.1.2.1.1.1.0", "1.3.6.1.2.1.2.2.1.10.436211712"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let bytes = v2c_request(0xa0, (0, 0), &oids);
        let message = Message::from_ber(&bytes).expect("a message");
        assert_eq!((message.version.0, message.community), (1, &b"public"[..]));
        let Pdus::GetRequest(get) = message.data else {
            panic!("not a GetRequest: {:?}", message.data);
        };
        let names: Vec<String> = get
            .0
            .variable_bindings
            .0
            .iter()
            .map(|vb| vb.expect("a binding").name.0.to_string())
            .collect();
        assert_eq!(
            names,
            ["1.3.6.1.2.1.1.1.0", "1.3.6.1.2.1.2.2.1.10.436211712"]
        );
    }
}

#[cfg(test)]
mod integer_tests {
    #[test]
    fn integers_take_their_fewest_octets() {
        assert_eq!(super::integer(0), [0x02, 0x01, 0x00]);
        assert_eq!(super::integer(25), [0x02, 0x01, 25]);
        assert_eq!(super::integer(128), [0x02, 0x02, 0x00, 0x80]);
        assert_eq!(super::integer(580), [0x02, 0x02, 0x02, 0x44]);
    }
}
