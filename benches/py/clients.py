"""The Python clients of `snmp-bench --only clients`: gufo_snmp (sync and asyncio), ezsnmp
(net-snmp's library) and pysnmp (its asyncio API), each doing one case the way its users
write it.

Usage: python clients.py CLIENT PORT VERSION KIND REPETITIONS EXPECTED RUNS BUDGET_S USER AUTH PRIV OID...

KIND, REPETITIONS, EXPECTED, RUNS and BUDGET_S as in benches/c/netsnmp_client.c; CLIENT is
gufo_snmp-sync, gufo_snmp-async, ezsnmp or pysnmp. Prints one line per run,

    run CALLS WALL_MS CPU_S REQUESTS BINDINGS FAILED

with REQUESTS -1 (none of these clients says how many it sent), CPU_S this process's time
(time.process_time). A case the client does not offer prints `unsupported WHY` and exits 3.
"""

import asyncio
import sys
import time

CLIENT, PORT, VERSION, KIND = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
REPETITIONS, EXPECTED, RUNS = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
BUDGET = float(sys.argv[8])
USER, AUTH, PRIV = sys.argv[9], sys.argv[10], sys.argv[11]
OIDS = sys.argv[12:]


def unsupported(why):
    print("unsupported", why)
    sys.exit(3)


def in_subtree(oid, root):
    return oid == root or oid.startswith(root + ".")


# Each client: `opener()` makes a session (a context manager or an object with close), and
# `caller(session)` makes one call of the case, returning the bindings it brought.


def gufo_sync():
    from gufo.snmp import Aes128Key, Sha1Key, SnmpVersion, User
    from gufo.snmp.sync import SnmpSession

    kw = gufo_kw(SnmpVersion, User, Sha1Key, Aes128Key)

    def opener():
        return SnmpSession(**kw)

    def caller(s):
        if KIND in ("get", "setup"):
            return len(s.get_many(OIDS))
        if KIND == "bulk":
            # Its getbulk walks: the first REPETITIONS bindings are one GETBULK's answer.
            n = 0
            for _ in s.getbulk(OIDS[0], max_repetitions=REPETITIONS):
                n += 1
                if n == REPETITIONS:
                    break
            return n
        return sum(1 for _ in s.getbulk(OIDS[0], max_repetitions=REPETITIONS))

    return opener, caller, False


def gufo_async():
    from gufo.snmp import Aes128Key, Sha1Key, SnmpVersion, User
    from gufo.snmp.aio import SnmpSession

    kw = gufo_kw(SnmpVersion, User, Sha1Key, Aes128Key)

    def opener():
        return SnmpSession(**kw)

    async def caller(s):
        if KIND in ("get", "setup"):
            return len(await s.get_many(OIDS))
        n = 0
        async for _ in s.getbulk(OIDS[0], max_repetitions=REPETITIONS):
            n += 1
            if KIND == "bulk" and n == REPETITIONS:
                break
        return n

    return opener, caller, True


def gufo_kw(SnmpVersion, User, Sha1Key, Aes128Key):
    kw = dict(addr="127.0.0.1", port=PORT, timeout=2.0, recv_buffer=1 << 20)
    if VERSION == "3":
        user = User(USER, auth_key=Sha1Key(AUTH.encode()), priv_key=Aes128Key(PRIV.encode()))
        kw.update(version=SnmpVersion.v3, user=user)
    else:
        kw.update(version=SnmpVersion.v2c, community="public")
    return kw


def ezsnmp():
    from ezsnmp import Session

    kw = dict(hostname="127.0.0.1", port_number=PORT, timeout=2, retries=0,
              print_oids_numerically=True, set_max_repeaters_to_num=REPETITIONS)
    if VERSION == "3":
        kw.update(version=3, security_level="authPriv", security_username=USER,
                  auth_protocol="SHA", auth_passphrase=AUTH, privacy_protocol="AES",
                  privacy_passphrase=PRIV)
    else:
        kw.update(version="2c", community="public")

    class Opened:
        def __enter__(self):
            self.s = Session(**kw)
            return self.s

        def __exit__(self, *_):
            self.s.close()

    def caller(s):
        if KIND in ("get", "setup"):
            return len(s.get(OIDS))
        if KIND == "bulk":
            return len(s.bulk_get(OIDS))
        return len(s.bulk_walk(OIDS[0]))

    return Opened, caller, False


def pysnmp():
    from pysnmp.proto.rfc1905 import endOfMibView as EOMV
    from pysnmp.hlapi.v3arch.asyncio import (
        CommunityData, ContextData, ObjectIdentity, ObjectType, SnmpEngine, UdpTransportTarget,
        UsmUserData, bulk_cmd, get_cmd, usmAesCfb128Protocol, usmHMACSHAAuthProtocol)

    if VERSION == "3":
        auth = UsmUserData(USER, AUTH, PRIV, authProtocol=usmHMACSHAAuthProtocol,
                           privProtocol=usmAesCfb128Protocol)
    else:
        auth = CommunityData("public", mpModel=1)

    class Opened:
        async def __aenter__(self):
            self.engine = SnmpEngine()
            self.target = await UdpTransportTarget.create(("127.0.0.1", PORT), timeout=2, retries=0)
            return self

        async def __aexit__(self, *_):
            self.engine.close_dispatcher()

    def objects(oids):
        return [ObjectType(ObjectIdentity(o)) for o in oids]

    async def caller(s):
        if KIND in ("get", "setup"):
            err, status, _, binds = await get_cmd(s.engine, auth, s.target, ContextData(),
                                                  *objects(OIDS))
            return -1 if err or status else len(binds)
        if KIND == "bulk":
            err, status, _, binds = await bulk_cmd(s.engine, auth, s.target, ContextData(), 0,
                                                   REPETITIONS, *objects(OIDS))
            return -1 if err or status else len(binds)
        # A walk the way its users write one: GETBULKs from the last OID until the subtree ends.
        root, cursor, n = OIDS[0].lstrip("."), OIDS[0], 0
        while True:
            err, status, _, binds = await bulk_cmd(s.engine, auth, s.target, ContextData(), 0,
                                                   REPETITIONS, *objects([cursor]))
            if err or status:
                return -1
            if not binds:
                return n
            for name, value in binds:
                oid = str(name)
                if not in_subtree(oid, root) or value.tagSet == EOMV.tagSet:
                    return n
                n += 1
                cursor = oid

    return Opened, caller, True


CLIENTS = {"gufo_snmp-sync": gufo_sync, "gufo_snmp-async": gufo_async, "ezsnmp": ezsnmp,
           "pysnmp": pysnmp}


def report(calls, wall, cpu, bindings, failed):
    print("run", calls, f"{wall * 1e3:.6f}", f"{cpu:.6f}", -1, bindings, failed, flush=True)


def calls_for(first):
    return max(1, min(100, int(BUDGET / first))) if first > 0 else 100


def counted(got):
    return got if got == EXPECTED else -1


class Entered:
    """A sync client's session as the one runner takes it: entered and called as async code
    that never waits (making a coroutine, under a microsecond, is all it adds to a call)."""

    def __init__(self, opened):
        self.opened = opened

    async def __aenter__(self):
        return self.opened.__enter__()

    async def __aexit__(self, *exc):
        return self.opened.__exit__(*exc)


def as_async(opener, caller):
    async def call(s):
        return caller(s)

    return (lambda: Entered(opener())), call


async def run(opener, caller):
    if KIND == "setup":
        # A call is a new session up to its first answer.
        async def setup(_):
            async with opener() as s:
                return await caller(s)

        await runs_of(None, setup)
        return
    async with opener() as s:
        await runs_of(s, caller)


async def runs_of(s, caller):
    # A first call not counted (warm-up), a second that says how long one takes.
    for _ in range(2):
        w0 = time.perf_counter()
        if counted(await caller(s)) < 0:
            sys.exit("a call before the runs failed")
    calls = calls_for(time.perf_counter() - w0)
    for _ in range(RUNS):
        bindings = failed = 0
        w0, c0 = time.perf_counter(), time.process_time()
        for _ in range(calls):
            got = counted(await caller(s))
            bindings, failed = bindings + max(got, 0), failed + int(got < 0)
        report(calls, time.perf_counter() - w0, time.process_time() - c0, bindings, failed)


def main():
    if CLIENT not in CLIENTS:
        sys.exit(f"no client {CLIENT}")
    opener, caller, is_async = CLIENTS[CLIENT]()
    if not is_async:
        opener, caller = as_async(opener, caller)
    asyncio.run(run(opener, caller))


main()
