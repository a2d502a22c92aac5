//! Reading SNMP payloads out of pcap and pcapng captures (pcap-file for the file formats,
//! etherparse for Ethernet, Linux cooked (v1 and the v2 of `tcpdump -i any`), raw IP, BSD
//! loopback, IPv4/IPv6, IP fragments and UDP), losing
//! nothing in silence: a frame the capture cut short (a snap length) is reported with how much
//! of it is there, a capture that ends inside a frame keeps the frames before it and says where
//! it ends, IPv4 and IPv6 fragments are reassembled (in a bounded table; what never completes
//! is reported), and every other frame is counted.

use std::collections::HashMap;

use etherparse::defrag::IpDefragPool;
use etherparse::{
    EtherType, IpNumber, Ipv6ExtensionSlice, LaxSlicedPacket, NetSlice, SlicedPacket,
    TransportSlice, UdpSlice,
};
use pcap_file::pcap::PcapParser;
use pcap_file::pcapng::{Block, PcapNgParser};
use pcap_file::DataLink;

/// One UDP datagram of a capture.
#[derive(Debug, Clone)]
pub struct Datagram {
    /// 1-based number of the frame in the capture (counting every frame, UDP or not); for a
    /// reassembled datagram, the frame of its last fragment.
    pub frame: usize,
    /// Source and destination ports.
    pub ports: (u16, u16),
    /// The UDP payload.
    pub payload: Vec<u8>,
}

/// What a capture holds, frame by frame.
#[derive(Debug, Clone)]
pub enum Item {
    /// A whole UDP datagram.
    Datagram(Datagram),
    /// A UDP frame the capture cut short (its snap length): `captured` of `original` octets.
    Cut {
        /// Its frame number.
        frame: usize,
        /// Source and destination ports.
        ports: (u16, u16),
        /// Octets captured.
        captured: usize,
        /// Octets the frame had on the wire.
        original: usize,
    },
    /// A UDP frame (as far as a lenient reading shows) whose link or IP headers are wrong, so
    /// that its payload cannot be told: an IPv4 total length past the frame, a bad header
    /// length.
    Malformed {
        /// Its frame number.
        frame: usize,
        /// Source and destination ports.
        ports: (u16, u16),
        /// What is wrong, as the packet parser says it.
        why: String,
    },
}

/// A capture read: its UDP datagrams and cut frames in order, and what else it held.
#[derive(Debug, Clone, Default)]
pub struct Capture {
    /// Datagrams and cut UDP frames, in order.
    pub items: Vec<Item>,
    /// Frames in all.
    pub frames: usize,
    /// Frames that are not UDP over IP (other protocols on a link we read).
    pub not_udp: usize,
    /// Frames on links we do not read: (link type, frames), in the order first seen.
    pub unread_links: Vec<(DataLink, usize)>,
    /// IP fragments that reassembled into a datagram (counted in `items` once, as it).
    pub fragments: usize,
    /// Fragmented datagrams that never completed: (frame of the first fragment seen,
    /// fragments seen).
    pub incomplete: Vec<(usize, usize)>,
    /// The capture ends inside this frame (or its header), and why it could not be read.
    pub ends_inside: Option<(usize, String)>,
    /// Stretches of the file that could not be read and were skipped, reading going on at
    /// the next block (pcapng) or record (pcap) that reads whole.
    pub skipped: Vec<Skipped>,
    /// IP fragments that overlap an earlier fragment of their datagram with other octets:
    /// (frame of the fragment, frame of the datagram's first fragment). The datagram is
    /// reassembled with the later octets, as the reassembly keeps them.
    pub overlaps: Vec<(usize, usize)>,
}

/// A stretch of a capture file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Frames read before it.
    pub after_frame: usize,
    /// Its first octet's offset in the file.
    pub offset: usize,
    /// Its length in octets.
    pub octets: usize,
    /// Why the block or record there could not be read.
    pub why: String,
}

/// Why a capture could not be read.
#[derive(Debug)]
pub struct CaptureError(pub String);

impl std::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The most fragmented datagrams reassembled at once; past it the oldest is given up (and
/// reported as incomplete), so a capture of endless fragments stays in bounded memory.
const MAX_OPEN_FRAGMENTED: usize = 256;

/// A fragmented datagram's identity: addresses and IP identification.
type FragKey = (Vec<u8>, Vec<u8>, u32);

/// The most octets of fragments kept per datagram to compare overlaps with (a datagram has at
/// most 65,535; past this, repeated fragments are compared with those kept only).
const MAX_KEPT_FRAGMENT_OCTETS: usize = 128 * 1024;

/// A datagram in reassembly: its first fragment's frame, the fragments seen, and the fragments
/// kept (offset, octets) to find overlaps that disagree.
#[derive(Debug, Default)]
struct Open {
    first: usize,
    seen: usize,
    parts: Vec<(usize, Vec<u8>)>,
    kept: usize,
}

impl Open {
    /// Whether `part` at `offset` overlaps a fragment seen before with other octets; keeps it.
    fn conflicts(&mut self, offset: usize, part: &[u8]) -> bool {
        let end = offset + part.len();
        let conflict = self.parts.iter().any(|(at, old)| {
            let (lo, hi) = (offset.max(*at), end.min(at + old.len()));
            lo < hi && part[lo - offset..hi - offset] != old[lo - at..hi - at]
        });
        if self.kept + part.len() <= MAX_KEPT_FRAGMENT_OCTETS {
            self.kept += part.len();
            self.parts.push((offset, part.to_vec()));
        }
        conflict
    }
}

/// Reads frames into a [`Capture`].
struct Reader {
    capture: Capture,
    /// Reassembly buffers, each under its first fragment's frame number.
    pool: IpDefragPool<usize, ()>,
    /// Open fragmented datagrams.
    open: HashMap<FragKey, Open>,
}

impl Reader {
    fn frame(&mut self, link: DataLink, data: &[u8], original: usize) {
        self.capture.frames += 1;
        let frame = self.capture.frames;
        if !reads(link) {
            let links = &mut self.capture.unread_links;
            match links.iter_mut().find(|(l, _)| *l == link) {
                Some((_, n)) => *n += 1,
                None => links.push((link, 1)),
            }
            return;
        }
        if data.len() < original {
            match lax_udp_ports(link, data) {
                Some(ports) => self.capture.items.push(Item::Cut {
                    frame,
                    ports,
                    captured: data.len(),
                    original,
                }),
                None => self.capture.not_udp += 1,
            }
            return;
        }
        let sliced = match slice(link, data) {
            Ok(sliced) => sliced,
            // A UDP frame whose headers do not hold together (an IP total length past the
            // frame, say) is said with why; anything else is another protocol.
            Err(why) => {
                match lax_udp_ports(link, data) {
                    Some(ports) => self
                        .capture
                        .items
                        .push(Item::Malformed { frame, ports, why }),
                    None => self.capture.not_udp += 1,
                }
                return;
            }
        };
        if let Some((key, offset, part)) = fragment_of(&sliced) {
            self.fragment(frame, key, (offset, part), &sliced);
            return;
        }
        match sliced.transport {
            Some(TransportSlice::Udp(u)) => self.capture.items.push(Item::Datagram(Datagram {
                frame,
                ports: (u.source_port(), u.destination_port()),
                payload: u.payload().to_vec(),
            })),
            _ => self.capture.not_udp += 1,
        }
    }

    /// `octets` octets at `offset` could not be read (`why`) and are skipped.
    fn skipped(&mut self, offset: usize, octets: usize, why: String) {
        self.capture.skipped.push(Skipped {
            after_frame: self.capture.frames,
            offset,
            octets,
            why,
        });
    }

    /// A fragment of the datagram `key` (`part`: its offset and octets): kept until the
    /// datagram is whole.
    fn fragment(
        &mut self,
        frame: usize,
        key: FragKey,
        part: (usize, &[u8]),
        sliced: &SlicedPacket<'_>,
    ) {
        let entry = self.open.entry(key.clone()).or_insert_with(|| Open {
            first: frame,
            ..Open::default()
        });
        entry.seen += 1;
        // The pool keeps each datagram under its first fragment's frame, which names it.
        let first = entry.first;
        if entry.conflicts(part.0, part.1) {
            self.capture.overlaps.push((frame, first));
        }
        match self.pool.process_sliced_packet(sliced, first, ()) {
            Ok(Some(whole)) => {
                let seen = self.open.remove(&key).map_or(1, |o| o.seen);
                self.capture.fragments += seen;
                let udp = (whole.ip_number == IpNumber::UDP)
                    .then(|| UdpSlice::from_slice(&whole.payload).ok())
                    .flatten();
                match udp {
                    Some(u) => self.capture.items.push(Item::Datagram(Datagram {
                        frame,
                        ports: (u.source_port(), u.destination_port()),
                        payload: u.payload().to_vec(),
                    })),
                    None => self.capture.not_udp += seen,
                }
            }
            Ok(None) => self.bound(),
            Err(_) => {
                // Fragments that do not fit together: the datagram is given up, reported.
                if let Some(open) = self.open.remove(&key) {
                    self.capture.incomplete.push((open.first, open.seen));
                }
                self.pool.retain(|f| *f != first);
            }
        }
    }

    /// Keeps at most [`MAX_OPEN_FRAGMENTED`] datagrams in reassembly, giving up the oldest.
    fn bound(&mut self) {
        if self.open.len() <= MAX_OPEN_FRAGMENTED {
            return;
        }
        let oldest = self.open.values().map(|v| v.first).min().unwrap_or(0);
        let gone: Vec<FragKey> = self
            .open
            .iter()
            .filter(|(_, v)| v.first == oldest)
            .map(|(k, _)| k.clone())
            .collect();
        for k in gone {
            if let Some(open) = self.open.remove(&k) {
                self.capture.incomplete.push((open.first, open.seen));
            }
        }
        self.pool.retain(|first| *first != oldest);
    }

    fn finish(mut self) -> Capture {
        let mut left: Vec<(usize, usize)> =
            self.open.into_values().map(|o| (o.first, o.seen)).collect();
        left.sort_unstable();
        self.capture.incomplete.extend(left);
        self.capture.incomplete.sort_unstable();
        self.capture
    }
}

/// Whether [`slice`] reads frames of `link`.
fn reads(link: DataLink) -> bool {
    matches!(
        link,
        DataLink::ETHERNET
            | DataLink::LINUX_SLL
            | DataLink::LINUX_SLL2
            | DataLink::RAW
            | DataLink::IPV4
            | DataLink::IPV6
            | DataLink::NULL
            | DataLink::LOOP
    )
}

/// Octets of a Linux cooked v2 header (LINKTYPE_LINUX_SLL2): protocol type (2), reserved
/// (2), interface index (4), ARPHRD type (2), packet type (1), address length (1), address (8).
const SLL2_HEADER: usize = 20;

/// The frame as etherparse slices it, for the links we read; what is wrong with it when it
/// does not slice.
fn slice(link: DataLink, data: &[u8]) -> Result<SlicedPacket<'_>, String> {
    let short = || format!("{} octets, too few for the link's header", data.len());
    match link {
        DataLink::ETHERNET => SlicedPacket::from_ethernet(data).map_err(|e| e.to_string()),
        DataLink::LINUX_SLL => SlicedPacket::from_linux_sll(data).map_err(|e| e.to_string()),
        DataLink::LINUX_SLL2 => {
            let protocol = u16::from_be_bytes(*data.first_chunk::<2>().ok_or_else(short)?);
            let payload = data.get(SLL2_HEADER..).ok_or_else(short)?;
            SlicedPacket::from_ether_type(EtherType(protocol), payload).map_err(|e| e.to_string())
        }
        DataLink::RAW | DataLink::IPV4 | DataLink::IPV6 => {
            SlicedPacket::from_ip(data).map_err(|e| e.to_string())
        }
        // BSD loopback: a 4-octet address family in host order, then IP.
        DataLink::NULL | DataLink::LOOP => {
            SlicedPacket::from_ip(data.get(4..).ok_or_else(short)?).map_err(|e| e.to_string())
        }
        _ => Err(format!("link type {} not read", u32::from(link))),
    }
}

/// The UDP ports of a frame cut short, when what is left shows a UDP header.
fn lax_udp_ports(link: DataLink, data: &[u8]) -> Option<(u16, u16)> {
    let ip = match link {
        DataLink::ETHERNET => return udp_ports(LaxSlicedPacket::from_ethernet(data).ok()?),
        DataLink::LINUX_SLL => data.get(16..)?,
        DataLink::LINUX_SLL2 => data.get(SLL2_HEADER..)?,
        DataLink::RAW | DataLink::IPV4 | DataLink::IPV6 => data,
        DataLink::NULL | DataLink::LOOP => data.get(4..)?,
        _ => return None,
    };
    udp_ports(LaxSlicedPacket::from_ip(ip).ok()?)
}

fn udp_ports(sliced: LaxSlicedPacket<'_>) -> Option<(u16, u16)> {
    match sliced.transport? {
        TransportSlice::Udp(u) => Some((u.source_port(), u.destination_port())),
        _ => None,
    }
}

/// The identity of the datagram a fragment belongs to, the fragment's offset in it and its
/// octets; `None` when the frame is no fragment.
fn fragment_of<'a>(sliced: &SlicedPacket<'a>) -> Option<(FragKey, usize, &'a [u8])> {
    match sliced.net.as_ref()? {
        NetSlice::Ipv4(ip) => {
            let h = ip.header();
            h.is_fragmenting_payload().then(|| {
                let id = u32::from(h.identification());
                let key = (h.source().to_vec(), h.destination().to_vec(), id);
                let offset = usize::from(h.fragments_offset().byte_offset());
                (key, offset, ip.payload().payload)
            })
        }
        NetSlice::Ipv6(ip) => {
            let frag = ip.extensions().clone().into_iter().find_map(|e| match e {
                Ipv6ExtensionSlice::Fragment(f) if f.is_fragmenting_payload() => Some(f),
                _ => None,
            })?;
            let h = ip.header();
            let key = (
                h.source().to_vec(),
                h.destination().to_vec(),
                frag.identification(),
            );
            let offset = usize::from(frag.fragment_offset().byte_offset());
            Some((key, offset, ip.payload().payload))
        }
        _ => None,
    }
}

impl Capture {
    /// The whole datagrams, in order (what tests of a well-formed capture want).
    pub fn into_datagrams(self) -> Vec<Datagram> {
        self.items
            .into_iter()
            .filter_map(|i| match i {
                Item::Datagram(d) => Some(d),
                Item::Cut { .. } | Item::Malformed { .. } => None,
            })
            .collect()
    }
}

/// Every UDP datagram of a pcap or pcapng capture, in order, with what else it held.
pub fn read(mut input: impl std::io::Read) -> Result<Capture, CaptureError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| CaptureError(e.to_string()))?;
    read_bytes(&bytes)
}

/// [`read`], of a capture in memory.
pub fn read_bytes(bytes: &[u8]) -> Result<Capture, CaptureError> {
    let magic = bytes
        .get(..4)
        .ok_or_else(|| CaptureError("capture shorter than its magic number".into()))?;
    let mut reader = Reader {
        capture: Capture::default(),
        pool: IpDefragPool::new(),
        open: HashMap::new(),
    };
    if magic == [0x0a, 0x0d, 0x0d, 0x0a] {
        read_pcapng(bytes, &mut reader)?;
    } else {
        read_pcap(bytes, &mut reader)?;
    }
    Ok(reader.finish())
}

fn read_pcap(bytes: &[u8], reader: &mut Reader) -> Result<(), CaptureError> {
    let (mut rest, parser) =
        PcapParser::new(bytes).map_err(|e| CaptureError(format!("pcap: {e}")))?;
    let (link, fcs) = link_and_fcs(parser.header().datalink);
    while !rest.is_empty() {
        match parser.next_raw_packet(rest) {
            Ok((after, raw)) => {
                // The frame check sequence ends each frame the header says has one: not IP.
                let original = (raw.orig_len as usize).saturating_sub(fcs);
                let data = &raw.data[..raw.data.len().min(original)];
                reader.frame(link, data, original);
                rest = after;
            }
            Err(e) => match next_pcap_record(rest, &parser.header()) {
                Some(skip) => {
                    reader.skipped(bytes.len() - rest.len(), skip, e.to_string());
                    rest = &rest[skip..];
                }
                None => {
                    let frame = reader.capture.frames + 1;
                    reader.capture.ends_inside = Some((frame, e.to_string()));
                    break;
                }
            },
        }
    }
    Ok(())
}

/// A classic pcap header's link type, and the octets of frame check sequence each frame ends
/// with: the field's low 16 bits are the link type; bit 28 set says bits 29-31 count the
/// FCS in 16-bit words (tcpdump reads `0x30000001` as Ethernet with two octets of FCS).
fn link_and_fcs(field: DataLink) -> (DataLink, usize) {
    let raw = u32::from(field);
    if raw >> 16 == 0 {
        return (field, 0);
    }
    let fcs = match raw & (1 << 28) {
        0 => 0,
        _ => (raw >> 29) as usize * 2,
    };
    (DataLink::from(raw & 0xffff), fcs)
}

/// Octets of a classic pcap record header: seconds, sub-seconds, captured and original length.
const PCAP_RECORD_HEADER: usize = 16;

/// Where the next readable pcap record starts after one at the start of `rest` that could not
/// be read: the first offset past the start where a record header is plausible (its lengths
/// within the snap length, captured no more than original, the sub-second field under a
/// second, at least one octet captured) and is followed by the end of the file or by another
/// plausible header.
fn next_pcap_record(rest: &[u8], header: &pcap_file::pcap::PcapHeader) -> Option<usize> {
    let big = header.endianness == pcap_file::Endianness::Big;
    let limit = (header.snaplen as usize).clamp(PCAP_RECORD_HEADER, 1 << 18);
    let word = |at: usize| -> Option<usize> {
        let w = *rest.get(at..at + 4)?.first_chunk::<4>()?;
        Some(if big {
            u32::from_be_bytes(w)
        } else {
            u32::from_le_bytes(w)
        } as usize)
    };
    // The record at `at`'s end, when its header is plausible and it fits in the file.
    let record_end = |at: usize| -> Option<usize> {
        let (sub, captured, original) = (word(at + 4)?, word(at + 8)?, word(at + 12)?);
        let plausible =
            sub < 1_000_000_000 && (1..=original).contains(&captured) && original <= limit;
        let end = at + PCAP_RECORD_HEADER + captured;
        (plausible && end <= rest.len()).then_some(end)
    };
    (1..rest.len()).find(|&at| match record_end(at) {
        Some(end) => end == rest.len() || record_end(end).is_some(),
        None => false,
    })
}

fn read_pcapng(bytes: &[u8], reader: &mut Reader) -> Result<(), CaptureError> {
    let (mut rest, mut ng) =
        PcapNgParser::new(bytes).map_err(|e| CaptureError(format!("pcapng: {e}")))?;
    while !rest.is_empty() {
        let block = match ng.next_block(rest) {
            Ok((after, block)) => {
                rest = after;
                block
            }
            Err(e) => {
                let big = ng.section().endianness == pcap_file::Endianness::Big;
                match next_pcapng_block(rest, big) {
                    Some(skip) => {
                        reader.skipped(bytes.len() - rest.len(), skip, e.to_string());
                        rest = &rest[skip..];
                        continue;
                    }
                    None => {
                        let frame = reader.capture.frames + 1;
                        reader.capture.ends_inside = Some((frame, e.to_string()));
                        break;
                    }
                }
            }
        };
        // An interface unknown to the section is read as Ethernet, the most common link.
        let link = |id: usize| {
            ng.interfaces()
                .get(id)
                .map_or(DataLink::ETHERNET, |i| i.linktype)
        };
        match block {
            Block::EnhancedPacket(epb) => {
                let link = link(epb.interface_id as usize);
                reader.frame(link, &epb.data, epb.original_len as usize);
            }
            Block::SimplePacket(spb) => {
                reader.frame(link(0), &spb.data, spb.original_len as usize);
            }
            _ => {}
        }
    }
    Ok(())
}

/// pcapng's block types (pcapng draft, section 11.1) a block read again after damage may have.
const PCAPNG_BLOCK_TYPES: [u32; 9] = [
    0x0a0d_0d0a, // Section Header
    1,           // Interface Description
    2,           // Packet (obsolete)
    3,           // Simple Packet
    4,           // Name Resolution
    5,           // Interface Statistics
    6,           // Enhanced Packet
    9,           // Systemd Journal Export
    10,          // Decryption Secrets
];

/// Where the next whole pcapng block starts after a block at the start of `rest` that could
/// not be read: the first offset (a multiple of 4 past the start, as blocks are aligned) where
/// a known block type is followed by a length whose copy at the block's end agrees.
fn next_pcapng_block(rest: &[u8], big: bool) -> Option<usize> {
    let word = |at: usize| -> Option<u32> {
        let w = *rest.get(at..at + 4)?.first_chunk::<4>()?;
        Some(if big {
            u32::from_be_bytes(w)
        } else {
            u32::from_le_bytes(w)
        })
    };
    (4..rest.len()).step_by(4).find(|&at| {
        let (Some(kind), Some(len)) = (word(at), word(at + 4)) else {
            return false;
        };
        let len = len as usize;
        PCAPNG_BLOCK_TYPES.contains(&kind)
            && len >= 12
            && len.is_multiple_of(4)
            && at.checked_add(len).is_some_and(|end| end <= rest.len())
            && word(at + len - 4) == Some(len as u32)
    })
}
