/*
 * net-snmp's synchronous single-session API as a client, for `snmp-bench --only clients`.
 *
 * Usage: netsnmp_client PORT VERSION KIND REPETITIONS EXPECTED RUNS BUDGET_S OID... [-- USER AUTHPASS PRIVPASS]
 *
 * VERSION is 2c (community "public") or 3 (authPriv SHA-1/AES-128 as USER). KIND is
 *   setup  a new session (snmp_sess_open: over SNMPv3 the engine's discovery and the keys
 *          made from the passwords) up to the answer of a GET of the OIDs, then closed;
 *   get    a GET of the OIDs;
 *   bulk   a GETBULK (non-repeaters 0, max-repetitions REPETITIONS) of the OIDs;
 *   walk   a walk of the subtree under the one OID by GETBULKs of REPETITIONS.
 * Each call must bring back EXPECTED bindings (a call that does not is a failure). After one
 * call not counted (a warm-up) and one that times a call, each run makes as many calls as fit BUDGET_S,
 * 1 to 100, the same number every run. Prints one line per run:
 *
 *     run CALLS WALL_MS CPU_S REQUESTS BINDINGS FAILED
 *
 * where CPU_S is this process's user and system time over the run (getrusage).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define MAX_OIDS 16

struct spec {
    char peer[64];
    int v3;
    const char *kind;
    long repetitions, expected;
    oid oids[MAX_OIDS][MAX_OID_LEN];
    size_t lens[MAX_OIDS];
    int n_oids;
    const char *user, *auth, *priv;
};

static long requests;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* A session's handle (snmp_sess_open), or NULL. */
static void *open_session(const struct spec *s) {
    netsnmp_session init;
    snmp_sess_init(&init);
    init.peername = (char *)s->peer;
    init.timeout = 2000000;
    init.retries = 0;
    if (!s->v3) {
        init.version = SNMP_VERSION_2c;
        init.community = (u_char *)"public";
        init.community_len = 6;
    } else {
        init.version = SNMP_VERSION_3;
        init.securityName = (char *)s->user;
        init.securityNameLen = strlen(s->user);
        init.securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
        init.securityAuthProto = usmHMACSHA1AuthProtocol;
        init.securityAuthProtoLen = USM_AUTH_PROTO_SHA_LEN;
        init.securityAuthKeyLen = USM_AUTH_KU_LEN;
        if (generate_Ku(init.securityAuthProto, init.securityAuthProtoLen, (u_char *)s->auth,
                        strlen(s->auth), init.securityAuthKey, &init.securityAuthKeyLen) != SNMPERR_SUCCESS)
            return NULL;
        init.securityPrivProto = usmAESPrivProtocol;
        init.securityPrivProtoLen = USM_PRIV_PROTO_AES_LEN;
        init.securityPrivKeyLen = USM_PRIV_KU_LEN;
        if (generate_Ku(init.securityAuthProto, init.securityAuthProtoLen, (u_char *)s->priv,
                        strlen(s->priv), init.securityPrivKey, &init.securityPrivKeyLen) != SNMPERR_SUCCESS)
            return NULL;
    }
    return snmp_sess_open(&init);
}

/* One request of `type` for the spec's OIDs: the bindings it brought, or -1. */
static long exchange(void *sess, int type, const struct spec *s) {
    netsnmp_pdu *pdu = snmp_pdu_create(type), *response = NULL;
    if (type == SNMP_MSG_GETBULK) {
        pdu->non_repeaters = 0;
        pdu->max_repetitions = s->repetitions;
    }
    for (int i = 0; i < s->n_oids; i++)
        snmp_add_null_var(pdu, s->oids[i], s->lens[i]);
    requests++;
    int status = snmp_sess_synch_response(sess, pdu, &response);
    long bindings = -1;
    if (status == STAT_SUCCESS && response && response->errstat == SNMP_ERR_NOERROR) {
        bindings = 0;
        for (netsnmp_variable_list *v = response->variables; v; v = v->next_variable)
            bindings++;
    }
    if (response)
        snmp_free_pdu(response);
    return bindings;
}

/* A walk of the subtree under the spec's one OID by GETBULKs: the bindings in it, or -1. */
static long walk(void *sess, const struct spec *s) {
    oid cursor[MAX_OID_LEN];
    size_t cursor_len = s->lens[0];
    memcpy(cursor, s->oids[0], cursor_len * sizeof(oid));
    long bindings = 0;
    for (int ended = 0; !ended;) {
        netsnmp_pdu *pdu = snmp_pdu_create(SNMP_MSG_GETBULK), *response = NULL;
        pdu->non_repeaters = 0;
        pdu->max_repetitions = s->repetitions;
        snmp_add_null_var(pdu, cursor, cursor_len);
        requests++;
        int status = snmp_sess_synch_response(sess, pdu, &response);
        if (status != STAT_SUCCESS || !response || response->errstat != SNMP_ERR_NOERROR) {
            if (response)
                snmp_free_pdu(response);
            return -1;
        }
        ended = response->variables == NULL;
        for (netsnmp_variable_list *v = response->variables; v && !ended; v = v->next_variable) {
            if (v->type == SNMP_ENDOFMIBVIEW ||
                snmp_oidtree_compare(s->oids[0], s->lens[0], v->name, v->name_length) != 0) {
                ended = 1;
                break;
            }
            bindings++;
            memcpy(cursor, v->name, v->name_length * sizeof(oid));
            cursor_len = v->name_length;
        }
        snmp_free_pdu(response);
    }
    return bindings;
}

/* One call of the spec's kind on `sess`: the bindings it brought, or -1 (also when they are
 * not the number expected). */
static long call(void *sess, const struct spec *s) {
    long bindings;
    if (!strcmp(s->kind, "walk"))
        bindings = walk(sess, s);
    else
        bindings = exchange(sess, strcmp(s->kind, "bulk") ? SNMP_MSG_GET : SNMP_MSG_GETBULK, s);
    return bindings == s->expected ? bindings : -1;
}

/* One call on `sess`, or, for setup (`sess` NULL), on a session of its own opened and closed
 * around it. */
static long call_on(void *sess, const struct spec *s) {
    if (sess)
        return call(sess, s);
    void *own = open_session(s);
    if (!own)
        return -1;
    long got = call(own, s);
    snmp_sess_close(own);
    return got;
}

/* A dotted OID (a leading dot or not) into `out`: its length, or 0 when it is not one. Numeric
 * only, so that no MIB is read. */
static size_t parse_oid(const char *text, oid *out, size_t *len) {
    *len = 0;
    for (const char *p = text + (*text == '.'); *p;) {
        char *end;
        unsigned long arc = strtoul(p, &end, 10);
        if (end == p || *len == MAX_OID_LEN || (*end && *end != '.'))
            return 0;
        out[(*len)++] = arc;
        p = *end ? end + 1 : end;
    }
    return *len;
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: %s PORT VERSION KIND REPETITIONS EXPECTED RUNS BUDGET_S OID... [-- USER AUTHPASS PRIVPASS]\n", argv[0]);
        return 2;
    }
    static struct spec s;
    snprintf(s.peer, sizeof s.peer, "udp:127.0.0.1:%s", argv[1]);
    s.v3 = !strcmp(argv[2], "3");
    s.kind = argv[3];
    s.repetitions = atol(argv[4]);
    s.expected = atol(argv[5]);
    int runs = atoi(argv[6]);
    double budget = atof(argv[7]);
    int i = 8;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if (s.n_oids == MAX_OIDS - 1) {
            fprintf(stderr, "too many OIDs\n");
            return 2;
        }
        if (!parse_oid(argv[i], s.oids[s.n_oids], &s.lens[s.n_oids])) {
            fprintf(stderr, "%s: not an OID\n", argv[i]);
            return 2;
        }
        s.n_oids++;
    }
    if (s.v3) {
        if (i + 3 >= argc) {
            fprintf(stderr, "SNMPv3 needs -- USER AUTHPASS PRIVPASS\n");
            return 2;
        }
        s.user = argv[i + 1];
        s.auth = argv[i + 2];
        s.priv = argv[i + 3];
    }
    init_snmp("snmp-bench");

    /* Setup: each call makes its own session; else one session serves every call. */
    int setup = !strcmp(s.kind, "setup");
    void *sess = setup ? NULL : open_session(&s);
    if (!setup && !sess) {
        fprintf(stderr, "snmp_sess_open failed\n");
        return 1;
    }
    /* A first call not counted (warm-up), a second that says how long one takes. */
    double first = 0;
    for (int k = 0; k < 2; k++) {
        double t0 = now();
        if (call_on(sess, &s) < 0) {
            fprintf(stderr, "a call before the runs failed\n");
            return 1;
        }
        first = now() - t0;
    }
    int calls = first > 0 ? (int)(budget / first) : 100;
    calls = calls < 1 ? 1 : calls > 100 ? 100 : calls;
    for (int r = 0; r < runs; r++) {
        long before = requests, bindings = 0;
        int failed = 0;
        double start = now(), c0 = cpu();
        for (int k = 0; k < calls; k++) {
            long got = call_on(sess, &s);
            if (got < 0)
                failed++;
            else
                bindings += got;
        }
        double wall = now() - start, c = cpu() - c0;
        printf("run %d %.6f %.6f %ld %ld %d\n", calls, wall * 1e3, c, requests - before, bindings, failed);
    }
    if (sess)
        snmp_sess_close(sess);
    return 0;
}
