/*
 * net-snmp's asynchronous API polling many agents, for `snmp-bench --only poll`.
 *
 * Usage: netsnmp_poll FIRST LAST VERSION ROUNDS
 *
 * A session per agent on 127.0.0.1 ports FIRST..=LAST (SNMPv2c community "public", or SNMPv3
 * authPriv SHA-1/AES-128 as "benchuser"), opened once and kept (snmp_open; over SNMPv3 that
 * discovers the agent's engine), as the poller keeps its exchanges. A warm-up round of the
 * GET, then ROUNDS counted rounds of the GET of ten bindings, then ROUNDS of a walk of the
 * ifTable by GETBULK of 40, at most 256 agents at once, each request sent with
 * snmp_async_send and every answer read in net-snmp's own loop (snmp_select_info2, select,
 * snmp_read2, snmp_timeout). Prints a line per job:
 *
 *     op outcomes failed bindings requests cpu_s wall_s p50_ms p99_ms
 *
 * where requests counts the requests sent (not their retries) and cpu_s is this process's
 * user and system time over the counted rounds (getrusage).
 */
#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/library/large_fd_set.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define IN_FLIGHT 256
#define REPETITIONS 40

enum job { GET, WALK };

struct agent {
    void *session; /* its session, from snmp_open */
    double started;
};

static struct agent *agents;
static int n_agents, next_agent, active, failed;
static long bindings, requests;
static enum job job;
static double *latencies;
static int n_latencies;

static const char *GET_OIDS[] = {
    "1.3.6.1.2.1.1.1.0",     "1.3.6.1.2.1.1.2.0",     "1.3.6.1.2.1.1.3.0",
    "1.3.6.1.2.1.1.4.0",     "1.3.6.1.2.1.1.5.0",     "1.3.6.1.2.1.1.6.0",
    "1.3.6.1.2.1.2.1.0",     "1.3.6.1.2.1.2.2.1.2.1", "1.3.6.1.2.1.2.2.1.8.1",
    "1.3.6.1.2.1.2.2.1.10.1",
};
static oid get_oids[10][MAX_OID_LEN];
static size_t get_lens[10];
static oid table[] = {1, 3, 6, 1, 2, 1, 2, 2};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec +
           r.ru_stime.tv_usec / 1e6;
}

static int answered(int op, netsnmp_session *s, int reqid, netsnmp_pdu *pdu, void *magic);

/* Sends the agent's next request: the GET, or the GETBULK after `from`. */
static int send_request(struct agent *a, const oid *from, size_t from_len) {
    netsnmp_pdu *pdu;
    if (job == GET) {
        pdu = snmp_pdu_create(SNMP_MSG_GET);
        for (int k = 0; k < 10; k++)
            snmp_add_null_var(pdu, get_oids[k], get_lens[k]);
    } else {
        pdu = snmp_pdu_create(SNMP_MSG_GETBULK);
        pdu->non_repeaters = 0;
        pdu->max_repetitions = REPETITIONS;
        snmp_add_null_var(pdu, from, from_len);
    }
    requests++;
    if (snmp_async_send(a->session, pdu, answered, a) == 0) {
        snmp_free_pdu(pdu);
        return 0;
    }
    return 1;
}

static void finish(struct agent *a, int ok) {
    if (!ok)
        failed++;
    latencies[n_latencies++] = (now() - a->started) * 1e3;
    active--;
}

static void start_next(void) {
    while (active < IN_FLIGHT && next_agent < n_agents) {
        struct agent *a = &agents[next_agent++];
        a->started = now();
        active++;
        if (!send_request(a, table, OID_LENGTH(table)))
            finish(a, 0);
    }
}

static int answered(int op, netsnmp_session *s, int reqid, netsnmp_pdu *pdu, void *magic) {
    struct agent *a = magic;
    (void)s;
    (void)reqid;
    if (op != NETSNMP_CALLBACK_OP_RECEIVED_MESSAGE || pdu->errstat != SNMP_ERR_NOERROR) {
        finish(a, 0);
        start_next();
        return 1;
    }
    if (job == GET) {
        for (netsnmp_variable_list *v = pdu->variables; v; v = v->next_variable)
            bindings++;
        finish(a, 1);
        start_next();
        return 1;
    }
    netsnmp_variable_list *last = NULL;
    for (netsnmp_variable_list *v = pdu->variables; v; v = v->next_variable) {
        if (v->type == SNMP_ENDOFMIBVIEW ||
            snmp_oidtree_compare(table, OID_LENGTH(table), v->name, v->name_length) != 0) {
            last = NULL;
            break;
        }
        bindings++;
        last = v;
    }
    if (last == NULL) {
        finish(a, 1);
        start_next();
    } else if (!send_request(a, last->name, last->name_length)) {
        finish(a, 0);
        start_next();
    }
    return 1;
}

static int by_value(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* One round of `j` over every agent, in net-snmp's event loop. */
static void round_of(enum job j) {
    job = j;
    next_agent = 0;
    start_next();
    netsnmp_large_fd_set fdset;
    netsnmp_large_fd_set_init(&fdset, n_agents + 64);
    while (active > 0) {
        int fds = 0, block = 1;
        struct timeval timeout;
        NETSNMP_LARGE_FD_ZERO(&fdset);
        snmp_select_info2(&fds, &fdset, &timeout, &block);
        fds = netsnmp_large_fd_set_select(fds, &fdset, NULL, NULL, block ? NULL : &timeout);
        if (fds > 0)
            snmp_read2(&fdset);
        else if (fds == 0)
            snmp_timeout();
        else {
            perror("select");
            exit(1);
        }
    }
    netsnmp_large_fd_set_cleanup(&fdset);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FIRST LAST VERSION ROUNDS\n", argv[0]);
        return 2;
    }
    int first = atoi(argv[1]), last = atoi(argv[2]), rounds = atoi(argv[4]);
    int v3 = strcmp(argv[3], "3") == 0;
    n_agents = last - first + 1;
    if (n_agents < 1 || rounds < 1) {
        fprintf(stderr, "no agents or no rounds\n");
        return 2;
    }
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);

    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
    netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
    init_snmp("snmp-bench-poll");
    for (int k = 0; k < 10; k++) {
        get_lens[k] = MAX_OID_LEN;
        if (!read_objid(GET_OIDS[k], get_oids[k], &get_lens[k])) {
            fprintf(stderr, "%s: not an OID\n", GET_OIDS[k]);
            return 1;
        }
    }

    /* The master keys, derived once from the passwords (a megabyte hashed each). */
    u_char auth_ku[USM_AUTH_KU_LEN], priv_ku[USM_PRIV_KU_LEN];
    size_t auth_len = sizeof auth_ku, priv_len = sizeof priv_ku;
    if (v3 && (generate_Ku(usmHMACSHA1AuthProtocol, USM_AUTH_PROTO_SHA_LEN,
                           (u_char *)"benchauthpass", 13, auth_ku, &auth_len) != SNMPERR_SUCCESS ||
               generate_Ku(usmHMACSHA1AuthProtocol, USM_AUTH_PROTO_SHA_LEN,
                           (u_char *)"benchprivpass", 13, priv_ku, &priv_len) != SNMPERR_SUCCESS)) {
        fprintf(stderr, "generate_Ku failed\n");
        return 1;
    }

    agents = calloc(n_agents, sizeof *agents);
    latencies = calloc((size_t)n_agents * rounds + 1, sizeof *latencies);
    if (!agents || !latencies) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (int i = 0; i < n_agents; i++) {
        char peer[64];
        netsnmp_session s;
        snmp_sess_init(&s);
        snprintf(peer, sizeof peer, "udp:127.0.0.1:%d", first + i);
        s.peername = peer;
        s.timeout = 2000000;
        s.retries = 2;
        if (v3) {
            s.version = SNMP_VERSION_3;
            s.securityName = "benchuser";
            s.securityNameLen = strlen(s.securityName);
            s.securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
            s.securityAuthProto = usmHMACSHA1AuthProtocol;
            s.securityAuthProtoLen = USM_AUTH_PROTO_SHA_LEN;
            memcpy(s.securityAuthKey, auth_ku, auth_len);
            s.securityAuthKeyLen = auth_len;
            s.securityPrivProto = usmAESPrivProtocol;
            s.securityPrivProtoLen = USM_PRIV_PROTO_AES_LEN;
            memcpy(s.securityPrivKey, priv_ku, priv_len);
            s.securityPrivKeyLen = priv_len;
        } else {
            s.version = SNMP_VERSION_2c;
            s.community = (u_char *)"public";
            s.community_len = 6;
        }
        agents[i].session = snmp_open(&s);
        if (agents[i].session == NULL) {
            snmp_perror("snmp_open");
            return 1;
        }
    }

    round_of(GET); /* warm-up */
    const char *names[] = {"get", "walk"};
    for (int j = GET; j <= WALK; j++) {
        failed = 0;
        bindings = requests = 0;
        n_latencies = 0;
        double c0 = cpu(), w0 = now();
        for (int r = 0; r < rounds; r++)
            round_of((enum job)j);
        double c = cpu() - c0, w = now() - w0;
        qsort(latencies, n_latencies, sizeof *latencies, by_value);
        printf("%s %d %d %ld %ld %f %f %f %f\n", names[j], n_latencies, failed, bindings,
               requests, c, w, latencies[(int)((n_latencies - 1) * 0.5 + 0.5)],
               latencies[(int)((n_latencies - 1) * 0.99 + 0.5)]);
        fflush(stdout);
    }
    for (int i = 0; i < n_agents; i++)
        snmp_close(agents[i].session);
    snmp_shutdown("snmp-bench-poll");
    return 0;
}
