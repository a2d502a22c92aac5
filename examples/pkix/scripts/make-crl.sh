#!/bin/sh
# Makes a realistic CRL with `openssl ca -gencrl`: an RSA-2048 CA, ENTRIES revoked certificates
# with random 64-bit serials and UTCTime revocation dates, a reasonCode extension on every
# other entry, and the CRL extensions CRLNumber and AuthorityKeyIdentifier. CAcert's CRL, the
# seed's workload (8.72 MiB), has about 265,000 entries; this makes about that size for 265000.
#
#   make-crl.sh ENTRIES DIR   ->  DIR/crl.der, DIR/ca.der (the issuing certificate), DIR/crl.txt
#                                 (openssl crl -text of it)
set -eu
entries=$1
dir=$2
mkdir -p "$dir"
cd "$dir"
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = CA_default
[ CA_default ]
dir = .
database = index.txt
crlnumber = crlnumber
certificate = ca.pem
private_key = ca.key
default_md = sha256
default_crl_days = 30
crl_extensions = crl_ext
[ crl_ext ]
authorityKeyIdentifier = keyid:always
[ req ]
distinguished_name = dn
[ dn ]
[ ca_ext ]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 \
    -config ca.cnf -extensions ca_ext \
    -subj "/C=NZ/O=Example Revocation Authority/OU=Benchmarks/CN=Example CRL CA" 2>/dev/null
openssl x509 -in ca.pem -outform DER -out ca.der
echo 1000 > crlnumber
# The index: R(evoked), expiry, revocation date[,reason], serial, file, subject.
python3 - "$entries" > index.txt <<'PY'
import random, sys
rng = random.Random(5280)
reasons = ["keyCompromise", "CACompromise", "affiliationChanged", "superseded",
           "cessationOfOperation", "certificateHold", "unspecified"]
serials = set()
n = int(sys.argv[1])
while len(serials) < n:
    serials.add(rng.getrandbits(64) | (1 << 62))
for k, serial in enumerate(sorted(serials)):
    t = 1_500_000_000 + rng.randrange(0, 250_000_000)
    import time
    revoked = time.strftime("%y%m%d%H%M%SZ", time.gmtime(t))
    if k % 2 == 0:
        revoked += "," + reasons[k // 2 % len(reasons)]
    print("R\t491231235959Z\t%s\t%X\tunknown\t/CN=entry %d" % (revoked, serial, k))
PY
openssl ca -gencrl -config ca.cnf -out crl.pem -batch 2>/dev/null
openssl crl -in crl.pem -outform DER -out crl.der
openssl crl -inform DER -in crl.der -noout -text > crl.txt
