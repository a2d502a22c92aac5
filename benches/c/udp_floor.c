/*
 * The kernel's part of a UDP request/response on loopback, with no SNMP and no agent: a
 * client sends datagrams of LEN octets to an echo process (a child of this one) and receives
 * them back; its CPU time (getrusage, user and system) per request is printed.
 *
 * Usage: udp_floor sync|batch [REQUESTS [LEN]]
 *
 *   sync   one send and one blocking receive a request, as a GETNEXT walker does;
 *   batch  sendmmsg of 64, then recvmmsg until the 64 are back, as a poller does.
 *
 * Built and run by hand (`cc -O2 -o udp_floor benches/c/udp_floor.c && ./udp_floor sync`);
 * `snmp-bench --only walk|poll` measure the same patterns against the real agent and
 * simulator (their `udp floor` rows).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define ROOM 2048

static double cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

/* Sends back every datagram `fd` receives, to its sender, in batches; never returns. */
static void echo(int fd)
{
    static char buf[BATCH][ROOM];
    struct mmsghdr m[BATCH];
    struct iovec io[BATCH];
    struct sockaddr_in from[BATCH];
    for (;;) {
        for (int i = 0; i < BATCH; i++) {
            io[i] = (struct iovec){buf[i], ROOM};
            m[i].msg_hdr = (struct msghdr){.msg_name = &from[i],
                                           .msg_namelen = sizeof from[i],
                                           .msg_iov = &io[i],
                                           .msg_iovlen = 1};
        }
        int n = recvmmsg(fd, m, BATCH, MSG_WAITFORONE, NULL);
        if (n <= 0)
            continue;
        for (int i = 0; i < n; i++)
            io[i].iov_len = m[i].msg_len;
        sendmmsg(fd, m, n, 0);
    }
}

/* One send and one blocking receive per request: how many came back. */
static long sync_requests(int fd, long n, int len)
{
    char out[ROOM], in[ROOM];
    memset(out, 0x30, len);
    long got = 0;
    for (long i = 0; i < n; i++) {
        if (send(fd, out, len, 0) == len && recv(fd, in, sizeof in, 0) > 0)
            got++;
    }
    return got;
}

/* BATCH requests a sendmmsg, received back with recvmmsg: how many came back. */
static long batch_requests(int fd, long n, int len)
{
    static char out[BATCH][ROOM], in[BATCH][ROOM];
    struct mmsghdr ms[BATCH], mr[BATCH];
    struct iovec is[BATCH], ir[BATCH];
    for (int i = 0; i < BATCH; i++) {
        memset(out[i], 0x30, len);
        is[i] = (struct iovec){out[i], len};
        ms[i].msg_hdr = (struct msghdr){.msg_iov = &is[i], .msg_iovlen = 1};
        ir[i] = (struct iovec){in[i], ROOM};
        mr[i].msg_hdr = (struct msghdr){.msg_iov = &ir[i], .msg_iovlen = 1};
    }
    long got = 0, sent = 0;
    while (sent < n) {
        int s = sendmmsg(fd, ms, BATCH, 0);
        if (s <= 0)
            return got;
        sent += s;
        for (int want = s; want > 0;) {
            int r = recvmmsg(fd, mr, BATCH, MSG_WAITFORONE, NULL);
            if (r <= 0)
                return got;
            want -= r;
            got += r;
        }
    }
    return got;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "sync") && strcmp(argv[1], "batch"))) {
        fprintf(stderr, "usage: %s sync|batch [REQUESTS [LEN]]\n", argv[0]);
        return 2;
    }
    int batch = strcmp(argv[1], "batch") == 0;
    long n = argc > 2 ? atol(argv[2]) : (batch ? 1000000 : 200000);
    int len = argc > 3 ? atoi(argv[3]) : 80;
    if (n <= 0 || len <= 0 || len > ROOM) {
        fprintf(stderr, "REQUESTS > 0 and 0 < LEN <= %d\n", ROOM);
        return 2;
    }
    int big = 8 << 20;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    int server = socket(AF_INET, SOCK_DGRAM, 0);
    if (server < 0 || bind(server, (struct sockaddr *)&a, sizeof a) ||
        getsockname(server, (struct sockaddr *)&a, &alen)) {
        perror("echo socket");
        return 1;
    }
    setsockopt(server, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    pid_t child = fork();
    if (child == 0)
        echo(server);
    int client = socket(AF_INET, SOCK_DGRAM, 0);
    struct timeval two = {2, 0};
    setsockopt(client, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &two, sizeof two);
    if (client < 0 || connect(client, (struct sockaddr *)&a, sizeof a)) {
        perror("client socket");
        kill(child, SIGKILL);
        return 1;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double c0 = cpu_seconds();
    long got = batch ? batch_requests(client, n, len) : sync_requests(client, n, len);
    double c1 = cpu_seconds();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s: %ld of %ld requests answered, %d octets: client CPU %.2f us a request, "
           "%.0f requests/s\n",
           argv[1], got, n, len, (c1 - c0) / (got ? got : 1) * 1e6, got / wall);
    return got == n ? 0 : 1;
}
