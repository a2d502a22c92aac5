#!/usr/bin/env bash
# Captures the pcap corpus: net-snmp's own tools talking to net-snmp's own agent and trap
# receiver, on 127.0.0.1 only, each started here with a config in a temporary directory and
# stopped by PID. Never touches a system service.
#
#   corpus/capture.sh            # rewrites corpus/pcap/*.pcap and corpus/pcap/MANIFEST.md
#
# Needs: snmpd snmptrapd snmpget snmpgetnext snmpbulkget snmpwalk snmpbulkwalk snmpset snmptrap
# snmpinform (apt-get install -y snmpd snmptrapd snmp), tcpdump, and root (or CAP_NET_RAW) to
# capture on the loopback interface. Run from anywhere; output goes next to this script.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out="$here/pcap"
root=$(cd "$here/.." && pwd)
for t in snmpd snmptrapd snmpget snmpgetnext snmpbulkget snmpwalk snmpbulkwalk snmpset snmptrap snmpinform tcpdump; do
  command -v "$t" >/dev/null || { echo "capture.sh: $t not found" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$(shuf -i 20000-60000 -n 1)
    if ! ss -Hlun "sport = :$p" | grep -q .; then echo "$p"; return; fi
  done
  echo "capture.sh: no free UDP port" >&2; exit 1
}
AGENT_PORT=$(free_port)
TRAP_PORT=$(free_port)
A="udp:127.0.0.1:$AGENT_PORT"
T="udp:127.0.0.1:$TRAP_PORT"

# Values of every SMI syntax, served under enterprises.99999.1 by a `pass` script.
long200=$(printf 'a%.0s' $(seq 1 200))
long300=$(printf 'b%.0s' $(seq 1 300))
cat > "$work/values.sh" <<SH
#!/bin/sh
# snmpd pass protocol: -g OID (get), -n OID (getnext); answers OID, type, value.
B=.1.3.6.1.4.1.99999.1
answer() {
  case "\$1" in
    \$B.1.0) echo "\$1"; echo integer; echo -42;;
    \$B.2.0) echo "\$1"; echo integer; echo 2147483647;;
    \$B.3.0) echo "\$1"; echo string; echo "";;
    \$B.4.0) echo "\$1"; echo octet; echo "00 ff 10 80 7f";;
    \$B.5.0) echo "\$1"; echo string; echo "$long200";;
    \$B.6.0) echo "\$1"; echo string; echo "$long300";;
    \$B.7.0) echo "\$1"; echo objectid; echo .1.3.6.1.4.1.8072.3.2.10;;
    \$B.8.0) echo "\$1"; echo ipaddress; echo 192.0.2.33;;
    \$B.9.0) echo "\$1"; echo counter; echo 4294967295;;
    \$B.10.0) echo "\$1"; echo gauge; echo 3000000000;;
    \$B.11.0) echo "\$1"; echo timeticks; echo 123456789;;
    \$B.12.0) echo "\$1"; echo counter64; echo 18446744073709551615;;
    \$B.13.0) echo "\$1"; echo counter64; echo 9223372036854775813;;
    *) return 1;;
  esac
}
case "\$1" in
  -g) answer "\$2" || exit 0;;
  -n)
    for i in \$(seq 1 13); do
      case "\$2" in \$B|\$B.*) ;; *) answer "\$B.\$i.0"; exit 0;; esac
      # Next after \$2: the first index whose OID sorts after it.
      n=\$(echo "\$2" | sed "s|^\$B\\.||; s|\\..*||")
      case "\$n" in ''|*[!0-9]*) n=0;; esac
      if [ "\$2" = "\$B" ] || [ "\$i" -gt "\$n" ]; then answer "\$B.\$i.0"; exit 0; fi
    done
    exit 0;;
esac
SH
chmod +x "$work/values.sh"

cat > "$work/snmpd.conf" <<CONF
rocommunity public 127.0.0.1
rwcommunity private 127.0.0.1
engineID snmp-codegen
load 12 10 5
pass .1.3.6.1.4.1.99999.1 $work/values.sh
createUser noauth
createUser md5user MD5 "md5password"
createUser shauser SHA "shapassword"
createUser sha224user SHA-224 "sha224password"
createUser sha256user SHA-256 "sha256password"
createUser sha384user SHA-384 "sha384password"
createUser sha512user SHA-512 "sha512password"
createUser desuser SHA "desauthpass" DES "desprivpass"
createUser aesuser SHA "aesauthpass" AES "aesprivpass"
createUser aes192user SHA-256 "aes192authpass" AES-192 "aes192privpass"
createUser aes256user SHA-512 "aes256authpass" AES-256 "aes256privpass"
rouser noauth noauth
rouser md5user auth
rouser shauser auth
rouser sha224user auth
rouser sha256user auth
rouser sha384user auth
rouser sha512user auth
rouser desuser priv
rouser aesuser priv
rouser aes192user priv
rouser aes256user priv
CONF
cat > "$work/snmptrapd.conf" <<CONF
authCommunity log public
disableAuthorization yes
CONF

mkdir -p "$work/agent" "$work/trapd"
SNMP_PERSISTENT_DIR="$work/agent" snmpd -f -Lf "$work/snmpd.log" -C -c "$work/snmpd.conf" -p "$work/snmpd.pid" "$A" &
pids+=($!)
SNMP_PERSISTENT_DIR="$work/trapd" snmptrapd -f -Lf "$work/snmptrapd.log" -C -c "$work/snmptrapd.conf" -p "$work/snmptrapd.pid" "$T" &
pids+=($!)
for _ in $(seq 1 50); do
  snmpget -v2c -c public -t 0.2 -r 0 "$A" 1.3.6.1.2.1.1.3.0 >/dev/null 2>&1 && break
  sleep 0.2
done

export MIBS=""
O=(-t 1 -r 1 -On)
mkdir -p "$out"
rm -f "$out"/*.pcap
manifest="$out/MANIFEST.md"
cat > "$manifest" <<HEAD
# The pcap corpus

Captured by \`corpus/capture.sh\`: net-snmp's tools ($(snmpget --version 2>&1 | head -1)) against
its own snmpd and snmptrapd on 127.0.0.1, one pcap per scenario. The agent's engine ID is the
text engine ID "snmp-codegen" (\`engineID snmp-codegen\` in its config). Decode any of them with
\`cargo run -q -p snmpc -- decode --pcap corpus/pcap/FILE\`.

USM users (user: auth protocol "auth password", priv protocol "priv password"): noauth (none);
md5user MD5 "md5password"; shauser SHA "shapassword"; sha224user SHA-224 "sha224password";
sha256user SHA-256 "sha256password"; sha384user SHA-384 "sha384password"; sha512user SHA-512
"sha512password"; desuser SHA "desauthpass" DES "desprivpass"; aesuser SHA "aesauthpass" AES
"aesprivpass"; aes192user SHA-256 "aes192authpass" AES-192 "aes192privpass"; aes256user SHA-512
"aes256authpass" AES-256 "aes256privpass". Communities: public (read), private (write).

HEAD

# One line per packet from snmpc's JSON: frame, version, user or community, PDU, request-id,
# error status, binding count.
summarise() {
  while IFS= read -r line; do
    field() { printf '%s' "$line" | grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2- | tr -d '"'; }
    local s="frame $(field frame): v$(field version)"
    [ -n "$(field community)" ] && s="$s community=$(field community)"
    [ -n "$(field user)" ] && s="$s user=$(field user) flags=$(field msg_flags)"
    if [ "$(field encrypted)" = "true" ]; then
      s="$s, scoped PDU encrypted"
    else
      s="$s $(field pdu) request-id=$(field request_id)"
      [ -n "$(field error_status)" ] && s="$s error-status=$(field error_status) error-index=$(field error_index)"
      [ -n "$(field non_repeaters)" ] && s="$s non-repeaters=$(field non_repeaters) max-repetitions=$(field max_repetitions)"
      s="$s, $(printf '%s' "$line" | grep -o '"oid"' | wc -l) binding(s)"
    fi
    [ -n "$(field error)" ] && s="frame $(field frame): does not decode: $(field error)"
    echo "$s"
  done
}

capture() {
  local name=$1 what=$2; shift 2
  local file="$out/$name.pcap"
  tcpdump -i lo -U -n -w "$file" "udp and (port $AGENT_PORT or port $TRAP_PORT)" >/dev/null 2>&1 &
  local dump=$!
  sleep 0.5
  "$@" >/dev/null 2>&1 || true
  sleep 0.5
  kill -INT "$dump"; wait "$dump" 2>/dev/null || true
  local n
  n=$(( ($(stat -c %s "$file") - 24) > 0 ? 1 : 0 ))
  {
    echo "## $name.pcap"
    echo
    echo "$what"
    echo
    echo '```text'
    (cd "$root" && cargo run -q -p snmpc -- decode --json --pcap "corpus/pcap/$name.pcap" 2>/dev/null | summarise) || true
    echo '```'
    echo
  } >> "$manifest"
  [ "$n" -gt 0 ] || echo "capture.sh: $name captured nothing" >&2
}

S=.1.3.6.1.2.1.1
V=.1.3.6.1.4.1.99999.1
ALL=("$V.1.0" "$V.2.0" "$V.3.0" "$V.4.0" "$V.5.0" "$V.6.0" "$V.7.0" "$V.8.0" "$V.9.0" "$V.10.0" "$V.11.0" "$V.12.0" "$V.13.0")

# SNMPv1
capture v1-get "v1 GetRequest/GetResponse: sysDescr, sysObjectID, sysUpTime." snmpget -v1 -c public "${O[@]}" "$A" $S.1.0 $S.2.0 $S.3.0
capture v1-getnext "v1 GetNextRequest and its response." snmpgetnext -v1 -c public "${O[@]}" "$A" $S.4
capture v1-walk "v1 walk of the system group (GetNext until it leaves the subtree)." snmpwalk -v1 -c public "${O[@]}" "$A" $S
capture v1-set "v1 SetRequest of sysLocation with the write community." snmpset -v1 -c private "${O[@]}" "$A" $S.6.0 s "rack 7"
capture v1-nosuchname "v1 get of an absent object: error-status noSuchName(2), error-index 1." snmpget -v1 -c public "${O[@]}" "$A" $S.99.0
capture v1-types "v1 get of the served values (no Counter64 in v1: the agent answers noSuchName)." snmpget -v1 -c public "${O[@]}" "$A" "$V.1.0" "$V.3.0" "$V.4.0" "$V.7.0" "$V.8.0" "$V.9.0" "$V.10.0" "$V.11.0"
capture v1-trap "v1 Trap-PDU (enterpriseSpecific 17) to snmptrapd." snmptrap -v1 -c public "$T" .1.3.6.1.4.1.8072.2.3 127.0.0.1 6 17 1234 $S.5.0 s "v1 trap"

# SNMPv2c
capture v2c-get "v2c get of sysDescr, sysObjectID, sysUpTime." snmpget -v2c -c public "${O[@]}" "$A" $S.1.0 $S.2.0 $S.3.0
capture v2c-types "v2c get of every SMI syntax: INTEGER (negative and maximal), OCTET STRING (empty, binary, 200 and 300 octets), OBJECT IDENTIFIER, IpAddress, Counter32, Gauge32, TimeTicks, Counter64 (2^64-1 and 2^63+5)." snmpget -v2c -c public "${O[@]}" "$A" "${ALL[@]}"
capture v2c-opaque "v2c get of UCD-SNMP-MIB laLoadFloat: an Opaque-wrapped float." snmpget -v2c -c public "${O[@]}" "$A" .1.3.6.1.4.1.2021.10.1.6.1 .1.3.6.1.4.1.2021.10.1.6.2
capture v2c-exceptions "v2c exceptions: noSuchObject, noSuchInstance; then endOfMibView from a getnext past the end." bash -c "snmpget -v2c -c public -t 1 -r 1 $A $S.99.0 $S.1.7 && snmpgetnext -v2c -c public -t 1 -r 1 $A .1.3.6.1.6.3.99"
capture v2c-getnext "v2c GetNextRequest." snmpgetnext -v2c -c public "${O[@]}" "$A" $S.1 "$V"
capture v2c-walk "v2c walk of the served values." snmpwalk -v2c -c public "${O[@]}" "$A" "$V"
capture v2c-getbulk "v2c GetBulkRequest, non-repeaters 1, max-repetitions 5." snmpbulkget -v2c -c public "${O[@]}" -Cn1 -Cr5 "$A" $S.3 "$V"
capture v2c-bulkwalk "v2c bulk walk of the system group, max-repetitions 4." snmpbulkwalk -v2c -c public "${O[@]}" -Cr4 "$A" $S
capture v2c-set "v2c SetRequest of sysContact and sysName." snmpset -v2c -c private "${O[@]}" "$A" $S.4.0 s "ops@example.net" $S.5.0 s "agent-under-test"
capture v2c-notwritable "v2c set of sysUpTime: notWritable(17)." snmpset -v2c -c private "${O[@]}" "$A" $S.3.0 t 5
capture v2c-wrongtype "v2c set of sysLocation with an INTEGER: wrongType(7)." snmpset -v2c -c private "${O[@]}" "$A" $S.6.0 i 5
capture v2c-trap "v2c SNMPv2-Trap-PDU (coldStart) with a varbind." snmptrap -v2c -c public "$T" 123 .1.3.6.1.6.3.1.1.5.1 $S.5.0 s "v2c trap"
capture v2c-inform "v2c InformRequest (linkUp) and snmptrapd's Response." snmpinform -v2c -c public -t 1 -r 1 "$T" 456 .1.3.6.1.6.3.1.1.5.4 .1.3.6.1.2.1.2.2.1.1.1 i 1

# SNMPv3: engine discovery (Report) then the request, for each security level and protocol.
v3() {
  local name=$1 what=$2; shift 2
  capture "$name" "$what" snmpget -v3 "${O[@]}" "$@" "$A" $S.1.0 $S.3.0
}
v3 v3-noauth "v3 noAuthNoPriv get (user noauth), with discovery." -l noAuthNoPriv -u noauth
v3 v3-unknown-user "v3 get by an unknown user: the agent's Report of usmStatsUnknownUserNames." -l noAuthNoPriv -u nobody
v3 v3-md5 "v3 authNoPriv HMAC-MD5-96." -l authNoPriv -u md5user -a MD5 -A md5password
v3 v3-sha "v3 authNoPriv HMAC-SHA-96." -l authNoPriv -u shauser -a SHA -A shapassword
v3 v3-sha224 "v3 authNoPriv HMAC-SHA-224." -l authNoPriv -u sha224user -a SHA-224 -A sha224password
v3 v3-sha256 "v3 authNoPriv HMAC-SHA-256." -l authNoPriv -u sha256user -a SHA-256 -A sha256password
v3 v3-sha384 "v3 authNoPriv HMAC-SHA-384." -l authNoPriv -u sha384user -a SHA-384 -A sha384password
v3 v3-sha512 "v3 authNoPriv HMAC-SHA-512." -l authNoPriv -u sha512user -a SHA-512 -A sha512password
v3 v3-wrong-password "v3 authNoPriv with a wrong password: Report of usmStatsWrongDigests." -l authNoPriv -u shauser -a SHA -A wrongpassword
v3 v3-des "v3 authPriv SHA + DES." -l authPriv -u desuser -a SHA -A desauthpass -x DES -X desprivpass
v3 v3-aes "v3 authPriv SHA + AES-128." -l authPriv -u aesuser -a SHA -A aesauthpass -x AES -X aesprivpass
v3 v3-aes192 "v3 authPriv SHA-256 + AES-192." -l authPriv -u aes192user -a SHA-256 -A aes192authpass -x AES-192 -X aes192privpass
v3 v3-aes256 "v3 authPriv SHA-512 + AES-256." -l authPriv -u aes256user -a SHA-512 -A aes256authpass -x AES-256 -X aes256privpass
capture v3-getbulk "v3 authPriv GetBulk (SHA + AES-128)." snmpbulkget -v3 "${O[@]}" -l authPriv -u aesuser -a SHA -A aesauthpass -x AES -X aesprivpass -Cn0 -Cr3 "$A" $S
capture v3-trap "v3 noAuthNoPriv SNMPv2-Trap-PDU (engine ID given, no discovery)." snmptrap -v3 -l noAuthNoPriv -u noauth -e 80001f8880636170747572652d74726170 "$T" 789 .1.3.6.1.6.3.1.1.5.1

total=$(cd "$root" && for f in "$out"/*.pcap; do cargo run -q -p snmpc -- decode --pcap "$f" 2>/dev/null | grep -c '^frame' || true; done | awk '{s+=$1} END {print s}')
echo "captured $(ls "$out"/*.pcap | wc -l) files, $total SNMP messages, into $out"
