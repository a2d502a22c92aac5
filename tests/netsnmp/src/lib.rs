//! net-snmp's libnetsnmp, loaded at run time with libloading: its own BER parser and builder,
//! for the benchmark's C column and the differential test. Nothing links against it.
//!
//! Functions used (net-snmp's headers): `snmp_pdu_create`, `snmp_pdu_parse`, `snmp_pdu_build`,
//! `snmp_free_pdu` (pdu_api.h, snmp_api.h) and `snmp_comstr_parse` (snmp_impl.h: the
//! version and community of a v1/v2c message, returning the PDU that follows); for the USM,
//! `generate_Ku`, `generate_kul` (keytools.h), `sc_check_keyed_hash` and `sc_decrypt`
//! (scapi.h).

use std::ffi::{c_int, c_long, c_uint, c_ulong, c_void};
use std::marker::PhantomData;

type PduCreate = unsafe extern "C" fn(c_int) -> *mut c_void;
type PduParse = unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize) -> c_int;
type PduBuild = unsafe extern "C" fn(*mut c_void, *mut u8, *mut usize) -> *mut u8;
type FreePdu = unsafe extern "C" fn(*mut c_void);
type ComstrParse =
    unsafe extern "C" fn(*mut u8, *mut usize, *mut u8, *mut usize, *mut c_long) -> *mut u8;

/// SNMP_MSG_RESPONSE, the command a fresh PDU is created with (parsing overwrites it).
const SNMP_MSG_RESPONSE: c_int = 0xa2;

/// Library file names tried when `SNMP_BENCH_NETSNMP_LIB` does not name one.
const NAMES: &[&str] = &[
    "libnetsnmp.so",
    "libnetsnmp.so.40",
    "libnetsnmp.so.35",
    "libnetsnmp.so.30",
    "libnetsnmp.dylib",
];

/// The loaded library.
pub struct NetSnmp {
    _lib: libloading::Library,
    create: PduCreate,
    parse: PduParse,
    build: PduBuild,
    free: FreePdu,
    comstr: ComstrParse,
    /// The file that was loaded.
    pub path: String,
}

/// A `netsnmp_pdu` owned by Rust; freed on drop. It may refer to the octets it was parsed
/// from, so it keeps them (a copy, or the caller's buffer for `'a`).
pub struct Pdu<'a> {
    lib: &'a NetSnmp,
    ptr: *mut c_void,
    _input: Option<Vec<u8>>,
    _borrow: PhantomData<&'a mut [u8]>,
}

impl Drop for Pdu<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle owns the PDU (from snmp_pdu_create) and frees it once.
        unsafe { (self.lib.free)(self.ptr) }
    }
}

impl Pdu<'_> {
    /// Encodes the PDU with `snmp_pdu_build` into `buf`; the octets written.
    pub fn build<'b>(&self, buf: &'b mut [u8]) -> Option<&'b [u8]> {
        let mut left = buf.len();
        // SAFETY: `ptr` is a live PDU; `buf` is valid for `left` octets; snmp_pdu_build writes
        // forward from its start and decrements `left` by what it wrote.
        let end = unsafe { (self.lib.build)(self.ptr, buf.as_mut_ptr(), &mut left) };
        if end.is_null() {
            None
        } else {
            Some(&buf[..buf.len() - left])
        }
    }
}

impl NetSnmp {
    /// Loads the library: the file `SNMP_BENCH_NETSNMP_LIB` names, else the usual names.
    pub fn load() -> Result<NetSnmp, String> {
        let candidates: Vec<String> = match std::env::var("SNMP_BENCH_NETSNMP_LIB") {
            Ok(p) => vec![p],
            Err(_) => NAMES.iter().map(|s| s.to_string()).collect(),
        };
        let mut errors = Vec::new();
        for path in &candidates {
            // SAFETY: loading libnetsnmp runs its initialisers, which only set up its own state.
            let lib = match unsafe { libloading::Library::new(path) } {
                Ok(lib) => lib,
                Err(e) => {
                    errors.push(format!("{path}: {e}"));
                    continue;
                }
            };
            // SAFETY: each symbol is looked up with the signature net-snmp's headers give it.
            let syms = unsafe {
                (|| -> Result<_, libloading::Error> {
                    Ok((
                        *lib.get::<PduCreate>(b"snmp_pdu_create\0")?,
                        *lib.get::<PduParse>(b"snmp_pdu_parse\0")?,
                        *lib.get::<PduBuild>(b"snmp_pdu_build\0")?,
                        *lib.get::<FreePdu>(b"snmp_free_pdu\0")?,
                        *lib.get::<ComstrParse>(b"snmp_comstr_parse\0")?,
                    ))
                })()
            };
            // Its parser logs what it rejects ("Bad PDU type received") to stderr when no log
            // handler is set; send its log to /dev/null instead: callers report what matters.
            // SAFETY: snmp_enable_filelog(const char *, int) only changes net-snmp's own state;
            // the path is a NUL-terminated string that outlives the call.
            if let Ok(filelog) = unsafe {
                lib.get::<unsafe extern "C" fn(*const std::ffi::c_char, c_int)>(
                    b"snmp_enable_filelog\0",
                )
            } {
                unsafe { filelog(c"/dev/null".as_ptr(), 1) };
            }
            match syms {
                Ok((create, parse, build, free, comstr)) => {
                    return Ok(NetSnmp {
                        _lib: lib,
                        create,
                        parse,
                        build,
                        free,
                        comstr,
                        path: path.clone(),
                    })
                }
                Err(e) => errors.push(format!("{path}: {e}")),
            }
        }
        Err(format!(
            "libnetsnmp not loadable ({}); install libsnmp-dev or set SNMP_BENCH_NETSNMP_LIB",
            errors.join("; ")
        ))
    }

    /// net-snmp's USM cryptography, from the same library.
    pub fn usm(&self) -> Result<UsmFunctions<'_>, String> {
        let lib = &self._lib;
        // SAFETY: each symbol is looked up with the signature net-snmp's headers give it.
        let found = unsafe {
            (|| -> Result<_, libloading::Error> {
                Ok(UsmFunctions {
                    _lib: lib,
                    generate_ku: *lib.get::<GenerateKu>(b"generate_Ku\0")?,
                    generate_kul: *lib.get::<GenerateKul>(b"generate_kul\0")?,
                    check_keyed_hash: *lib.get::<CheckKeyedHash>(b"sc_check_keyed_hash\0")?,
                    decrypt: *lib.get::<ScDecrypt>(b"sc_decrypt\0")?,
                    extend_kul: lib
                        .get::<ExtendKul>(b"netsnmp_extend_kul\0")
                        .ok()
                        .map(|f| *f),
                })
            })()
        };
        found.map_err(|e| format!("{}: {e}", self.path))
    }

    /// Parses a PDU TLV with `snmp_pdu_parse`, as a message of `version` (0 v1, 1 v2c) would,
    /// from a copy of `bytes` that the PDU keeps. Returns net-snmp's error code on failure.
    pub fn parse_pdu(&self, bytes: &[u8], version: i64) -> Result<Pdu<'_>, i32> {
        let mut copy = bytes.to_vec();
        let (data, len) = (copy.as_mut_ptr(), copy.len());
        // SAFETY: the PDU keeps `copy` (its heap buffer does not move), so `data` stays valid.
        unsafe { self.parse_raw(data, len, version, Some(copy)) }
    }

    /// [`NetSnmp::parse_pdu`] in the caller's buffer, without copying (the benchmark's path).
    pub fn parse_pdu_in<'a>(&'a self, bytes: &'a mut [u8], version: i64) -> Result<Pdu<'a>, i32> {
        // SAFETY: `bytes` outlives the returned PDU ('a).
        unsafe { self.parse_raw(bytes.as_mut_ptr(), bytes.len(), version, None) }
    }

    /// # Safety
    /// `data` must be valid for `len` octets for as long as the returned PDU lives.
    unsafe fn parse_raw(
        &self,
        data: *mut u8,
        len: usize,
        version: i64,
        keep: Option<Vec<u8>>,
    ) -> Result<Pdu<'_>, i32> {
        // SAFETY: snmp_pdu_create allocates and initialises a netsnmp_pdu, whose first field
        // is `long version` (net-snmp/types.h); the version decides how v2 types are parsed.
        let ptr = unsafe { (self.create)(SNMP_MSG_RESPONSE) };
        if ptr.is_null() {
            return Err(-1);
        }
        // SAFETY: `ptr` is a live netsnmp_pdu (see above).
        unsafe { *(ptr as *mut c_long) = version as c_long };
        let pdu = Pdu {
            lib: self,
            ptr,
            _input: keep,
            _borrow: PhantomData,
        };
        let mut len = len;
        // SAFETY: `pdu.ptr` is live; the caller guarantees `data` for `len` octets.
        let rc = unsafe { (self.parse)(pdu.ptr, data, &mut len) };
        if rc == 0 {
            Ok(pdu)
        } else {
            Err(rc)
        }
    }

    /// Parses a whole v1/v2c message the way net-snmp's `_snmp_parse` does without a
    /// session: `snmp_comstr_parse` for version and community, then `snmp_pdu_parse`.
    pub fn parse_message(&self, bytes: &[u8]) -> Result<(i64, Vec<u8>, Pdu<'_>), String> {
        let mut copy = bytes.to_vec();
        let mut len = copy.len();
        let mut community = vec![0u8; 256];
        let mut community_len = community.len();
        let mut version: c_long = -1;
        // SAFETY: all pointers are valid for the lengths given; snmp_comstr_parse writes at
        // most `community_len` octets of community and returns a pointer into `copy` (or NULL).
        let rest = unsafe {
            (self.comstr)(
                copy.as_mut_ptr(),
                &mut len,
                community.as_mut_ptr(),
                &mut community_len,
                &mut version,
            )
        };
        if rest.is_null() {
            return Err("snmp_comstr_parse failed".into());
        }
        let start = rest as usize - copy.as_ptr() as usize;
        if start > copy.len() || len > copy.len() - start {
            return Err("snmp_comstr_parse returned a position outside the input".into());
        }
        community.truncate(community_len.min(256));
        let pdu = self
            .parse_pdu(&copy[start..start + len], version as i64)
            .map_err(|rc| format!("snmp_pdu_parse returned {rc}"))?;
        Ok((version as i64, community, pdu))
    }
}

/// `generate_Ku` (keytools.h).
type GenerateKu =
    unsafe extern "C" fn(*const c_ulong, c_uint, *const u8, usize, *mut u8, *mut usize) -> c_int;
/// `generate_kul` (keytools.h).
type GenerateKul = unsafe extern "C" fn(
    *const c_ulong,
    c_uint,
    *const u8,
    usize,
    *const u8,
    usize,
    *mut u8,
    *mut usize,
) -> c_int;
/// `sc_check_keyed_hash` (scapi.h).
type CheckKeyedHash = unsafe extern "C" fn(
    *const c_ulong,
    usize,
    *const u8,
    c_uint,
    *const u8,
    c_uint,
    *const u8,
    c_uint,
) -> c_int;
/// `sc_decrypt` (scapi.h).
type ScDecrypt = unsafe extern "C" fn(
    *const c_ulong,
    usize,
    *mut u8,
    c_uint,
    *mut u8,
    c_uint,
    *mut u8,
    c_uint,
    *mut u8,
    *mut usize,
) -> c_int;

/// `netsnmp_extend_kul` (keytools.h, net-snmp 5.8 and later).
type ExtendKul = unsafe extern "C" fn(
    c_uint,
    *const c_ulong,
    c_uint,
    c_int,
    *const u8,
    c_uint,
    *mut *mut u8,
    *mut usize,
    c_uint,
) -> c_int;

/// snmpusm.h's privacy types for `netsnmp_extend_kul`: AES-192 and AES-256 (Blumenthal), and
/// the Reeder/Cisco variants of each.
pub const PRIV_AES192: i32 = 0x0102;
/// AES-256.
pub const PRIV_AES256: i32 = 0x0202;
/// `USM_AES_REEDER_FLAG | USM_AES_FLAG_CISCO`, or-ed onto an AES type.
pub const PRIV_CISCO_REEDER: i32 = 0x13_0000;

/// net-snmp's USM cryptography (keytools.h, scapi.h), for the differential test and the
/// benchmark's C column. Protocols are named by their OIDs, as net-snmp takes them.
pub struct UsmFunctions<'a> {
    _lib: &'a libloading::Library,
    generate_ku: GenerateKu,
    generate_kul: GenerateKul,
    check_keyed_hash: CheckKeyedHash,
    decrypt: ScDecrypt,
    extend_kul: Option<ExtendKul>,
}

/// An OID as net-snmp's `oid` arrays hold it (`unsigned long` arcs).
fn oid_arcs(oid: &[u32]) -> Vec<c_ulong> {
    oid.iter().map(|&a| c_ulong::from(a)).collect()
}

impl UsmFunctions<'_> {
    /// `kul` extended to `need` octets by `netsnmp_extend_kul` for privacy type `priv_type`
    /// ([`PRIV_AES192`], ...); `None` when the library has no such function. A library built
    /// without the AES key-extension drafts returns the key unextended.
    pub fn extend_kul(
        &self,
        auth: &[u32],
        priv_type: i32,
        engine_id: &[u8],
        kul: &[u8],
        need: usize,
    ) -> Option<Result<Vec<u8>, c_int>> {
        let f = self.extend_kul?;
        let oid = oid_arcs(auth);
        // Room for the extended key in place, so that net-snmp never frees or replaces it.
        let mut buf = vec![0u8; 128.max(need)];
        buf[..kul.len()].copy_from_slice(kul);
        let mut ptr = buf.as_mut_ptr();
        let mut len = kul.len();
        // SAFETY: the OID and engine ID are valid for their lengths; `ptr` points at `buf`,
        // whose size is given, at least `need`: net-snmp then extends in place and neither
        // frees nor replaces the buffer.
        let rc = unsafe {
            f(
                need as c_uint,
                oid.as_ptr(),
                oid.len() as c_uint,
                priv_type,
                engine_id.as_ptr(),
                engine_id.len() as c_uint,
                &mut ptr,
                &mut len,
                buf.len() as c_uint,
            )
        };
        if rc != 0 {
            return Some(Err(rc));
        }
        assert_eq!(ptr, buf.as_mut_ptr(), "extended in place");
        buf.truncate(len.min(buf.len()));
        Some(Ok(buf))
    }

    /// One of net-snmp's protocol OIDs (transform_oids.h: `usmHMACMD5AuthProtocol`, ...),
    /// read from the library's data; `len` is the array's length the header declares.
    pub fn protocol_oid(&self, name: &str, len: usize) -> Option<Vec<u32>> {
        let symbol: Vec<u8> = name.bytes().chain([0]).collect();
        // SAFETY: the symbol is an `oid name[len]` array (transform_oids.h), static data of
        // the loaded library, which outlives this read.
        unsafe {
            let at = self._lib.get::<*const c_ulong>(symbol.as_slice()).ok()?;
            let arcs = std::slice::from_raw_parts(*at, len);
            arcs.iter().map(|&a| u32::try_from(a).ok()).collect()
        }
    }

    /// `generate_Ku`: the key from `password` for the hash of authentication protocol `auth`.
    pub fn key_from_password(&self, auth: &[u32], password: &[u8]) -> Result<Vec<u8>, c_int> {
        let oid = oid_arcs(auth);
        // SAFETY: the OID and password are valid for the lengths given; `out` and `len` are
        // output_of's buffer and its length, which generate_Ku writes at most and updates.
        output_of(64, |out, len| unsafe {
            (self.generate_ku)(
                oid.as_ptr(),
                oid.len() as c_uint,
                password.as_ptr(),
                password.len(),
                out,
                len,
            )
        })
    }

    /// `generate_kul`: `ku` localized to `engine_id`.
    pub fn localize(&self, auth: &[u32], engine_id: &[u8], ku: &[u8]) -> Result<Vec<u8>, c_int> {
        let oid = oid_arcs(auth);
        // SAFETY: every input is valid for the length given with it; `out` and `len` are
        // output_of's buffer and its length, which generate_kul writes at most and updates.
        output_of(64, |out, len| unsafe {
            (self.generate_kul)(
                oid.as_ptr(),
                oid.len() as c_uint,
                engine_id.as_ptr(),
                engine_id.len(),
                ku.as_ptr(),
                ku.len(),
                out,
                len,
            )
        })
    }

    /// `sc_check_keyed_hash`: whether `mac` is the (truncated) HMAC of `message` under `key`.
    pub fn check_mac(&self, auth: &[u32], key: &[u8], message: &[u8], mac: &[u8]) -> bool {
        let oid = oid_arcs(auth);
        // SAFETY: every buffer is valid for the length given with it; nothing is written.
        let rc = unsafe {
            (self.check_keyed_hash)(
                oid.as_ptr(),
                oid.len(),
                key.as_ptr(),
                key.len() as c_uint,
                message.as_ptr(),
                message.len() as c_uint,
                mac.as_ptr(),
                mac.len() as c_uint,
            )
        };
        rc == 0
    }

    /// `sc_decrypt`: `ciphertext` decrypted under `key` and `iv` by privacy protocol `privacy`.
    pub fn decrypt(
        &self,
        privacy: &[u32],
        key: &[u8],
        iv: &[u8],
        ciphertext: &[u8],
    ) -> Result<Vec<u8>, c_int> {
        let oid = oid_arcs(privacy);
        let (mut key, mut iv, mut ct) = (key.to_vec(), iv.to_vec(), ciphertext.to_vec());
        // SAFETY: every buffer is valid for the length given with it (net-snmp takes them as
        // mutable but only reads the key, IV and ciphertext); `out` and `len` are output_of's
        // buffer and its length, which sc_decrypt writes at most and updates.
        output_of(ciphertext.len() + 16, |out, len| unsafe {
            (self.decrypt)(
                oid.as_ptr(),
                oid.len(),
                key.as_mut_ptr(),
                key.len() as c_uint,
                iv.as_mut_ptr(),
                iv.len() as c_uint,
                ct.as_mut_ptr(),
                ct.len() as c_uint,
                out,
                len,
            )
        })
    }
}

/// Calls a net-snmp function that writes up to `*len` octets at `out` and stores how many it
/// wrote: those octets, or its non-zero return code.
fn output_of(
    capacity: usize,
    call: impl FnOnce(*mut u8, &mut usize) -> c_int,
) -> Result<Vec<u8>, c_int> {
    let mut out = vec![0u8; capacity];
    let mut len = out.len();
    let rc = call(out.as_mut_ptr(), &mut len);
    if rc != 0 {
        return Err(rc);
    }
    out.truncate(len.min(capacity));
    Ok(out)
}
