/*
 * FrameDeck's launcher for the modern ClickHouse engine (libchdb.so from the npm package
 * @chdb/lib-linux-x64-gnu, pinned in infra/local/lib.sh).
 *
 *   launcher <path/to/libchdb.so> <clickhouse-local arguments...>
 *
 * libchdb.so is clickhouse-local as a library: its entry point query_stable_v2(argc, argv)
 * takes the argv of `clickhouse local ...` and returns when the query ends. Started with
 * `--config-file=... --query "SYSTEM START LISTEN HTTP; SYSTEM START LISTEN TCP; <a query
 * that runs until killed>"` it serves the HTTP and native protocols for as long as that
 * last query runs. infra/local/clickhouse-modern.supervisor.mjs runs this program, restarts
 * it when it dies, and stops it by KILL QUERY of that query.
 *
 * Built by infra/local/install.sh with the machine's gcc into the state dir (rebuilt when
 * this file changes).
 *
 * Exit status: 0 once query_stable_v2 has returned (the engine ended by itself: its query
 * finished, was killed, or failed; clickhouse-local has printed why on stderr), 2 when the
 * library cannot be loaded, 64 on bad usage. A signal otherwise (a crash of the engine).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/*
 * The leading fields of the result that query_stable_v2 returns (libchdb's
 * `struct local_result_v2`); only error_message is read here.
 */
struct engine_result {
    char *buf;
    size_t len;
    void *internal;
    double elapsed;
    uint64_t rows_read;
    uint64_t bytes_read;
    char *error_message;
};

typedef struct engine_result *(*query_fn)(int argc, char **argv);
typedef void (*free_fn)(struct engine_result *result);

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s <libchdb.so> <clickhouse-local arguments...>\n", argv[0]);
        return 64;
    }

    /*
     * Die with the supervisor: if it is SIGKILLed, nobody would stop or restart this engine,
     * and an orphan would keep the ports. FRAMEDECK_SUPERVISOR_PID closes the race where
     * the supervisor died before prctl ran.
     */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    const char *supervisor = getenv("FRAMEDECK_SUPERVISOR_PID");
    if (supervisor != NULL && (pid_t)atol(supervisor) != getppid()) {
        fprintf(stderr, "launcher: the supervisor (pid %s) is gone; not starting\n", supervisor);
        return 2;
    }

    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "launcher: cannot load %s: %s\n", argv[1], dlerror());
        return 2;
    }
    query_fn query = (query_fn)dlsym(lib, "query_stable_v2");
    free_fn free_result = (free_fn)dlsym(lib, "free_result_v2");
    if (query == NULL || free_result == NULL) {
        fprintf(stderr, "launcher: %s lacks query_stable_v2/free_result_v2 (another libchdb version?)\n", argv[1]);
        return 2;
    }

    /* clickhouse-local's argv: its own name first, then our arguments after the library path. */
    argv[1] = "clickhouse";
    struct engine_result *result = query(argc - 1, argv + 1);

    if (result == NULL) {
        fprintf(stderr, "launcher: the engine returned no result\n");
    } else {
        if (result->error_message != NULL) fprintf(stderr, "launcher: engine error: %s\n", result->error_message);
        free_result(result);
    }
    fprintf(stderr, "launcher: the engine's query ended; exiting\n");
    return 0;
}
