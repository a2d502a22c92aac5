//! Reading SNMP payloads out of pcap and pcapng captures (pcap-file for the file formats,
//! etherparse for Ethernet, Linux cooked, raw IP, IPv4/IPv6 and UDP).

use std::io::Read;

use etherparse::{SlicedPacket, TransportSlice};
use pcap_file::pcap::PcapReader;
use pcap_file::pcapng::{Block, PcapNgReader};
use pcap_file::DataLink;

/// One UDP datagram of a capture.
#[derive(Debug, Clone)]
pub struct Datagram {
    /// 1-based number of the frame in the capture (counting every frame, UDP or not).
    pub frame: usize,
    /// Source and destination ports.
    pub ports: (u16, u16),
    /// The UDP payload.
    pub payload: Vec<u8>,
}

/// Why a capture could not be read.
#[derive(Debug)]
pub struct CaptureError(pub String);

impl std::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn udp(link: DataLink, data: &[u8]) -> Option<((u16, u16), Vec<u8>)> {
    let sliced = match link {
        DataLink::ETHERNET => SlicedPacket::from_ethernet(data).ok()?,
        DataLink::LINUX_SLL => SlicedPacket::from_linux_sll(data).ok()?,
        DataLink::RAW | DataLink::IPV4 | DataLink::IPV6 => SlicedPacket::from_ip(data).ok()?,
        // BSD loopback: a 4-octet address family in host order, then IP.
        DataLink::NULL | DataLink::LOOP => SlicedPacket::from_ip(data.get(4..)?).ok()?,
        _ => return None,
    };
    match sliced.transport? {
        TransportSlice::Udp(u) => Some((
            (u.source_port(), u.destination_port()),
            u.payload().to_vec(),
        )),
        _ => None,
    }
}

/// Every UDP datagram of a pcap or pcapng capture, in order.
pub fn read(mut input: impl Read) -> Result<Vec<Datagram>, CaptureError> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| CaptureError(e.to_string()))?;
    let magic = bytes
        .get(..4)
        .ok_or_else(|| CaptureError("capture shorter than its magic number".into()))?;
    let mut out = Vec::new();
    if magic == [0x0a, 0x0d, 0x0d, 0x0a] {
        let mut reader =
            PcapNgReader::new(&bytes[..]).map_err(|e| CaptureError(format!("pcapng: {e}")))?;
        let mut links = Vec::new();
        let mut frame = 0;
        while let Some(block) = reader.next_block() {
            match block.map_err(|e| CaptureError(format!("pcapng: {e}")))? {
                Block::InterfaceDescription(idb) => links.push(idb.linktype),
                Block::EnhancedPacket(epb) => {
                    frame += 1;
                    let link = links
                        .get(epb.interface_id as usize)
                        .copied()
                        .unwrap_or(DataLink::ETHERNET);
                    if let Some((ports, payload)) = udp(link, &epb.data) {
                        out.push(Datagram {
                            frame,
                            ports,
                            payload,
                        });
                    }
                }
                Block::SimplePacket(spb) => {
                    frame += 1;
                    let link = links.first().copied().unwrap_or(DataLink::ETHERNET);
                    if let Some((ports, payload)) = udp(link, &spb.data) {
                        out.push(Datagram {
                            frame,
                            ports,
                            payload,
                        });
                    }
                }
                _ => {}
            }
        }
    } else {
        let mut reader =
            PcapReader::new(&bytes[..]).map_err(|e| CaptureError(format!("pcap: {e}")))?;
        let link = reader.header().datalink;
        let mut frame = 0;
        while let Some(packet) = reader.next_packet() {
            let packet = packet.map_err(|e| CaptureError(format!("pcap: {e}")))?;
            frame += 1;
            if let Some((ports, payload)) = udp(link, &packet.data) {
                out.push(Datagram {
                    frame,
                    ports,
                    payload,
                });
            }
        }
    }
    Ok(out)
}
