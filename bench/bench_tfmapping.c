/* bench_tfmapping.c — `cimport convert --from terraform` of a 10,000-resource state whose types come
 * from provider plugins (issue 12): the grpc-go peer on $PATH as pulumi-resource-acme (GetMapping)
 * and pulumi-resource-multi (GetMappings, then GetMapping). Reports wall time and peak RSS of the
 * cimport process, and the GetMapping/GetMappings calls the plugins logged — one GetMapping per
 * Terraform provider, whatever the number of resources. Run cold (empty mapping cache) and warm
 * (mappings read from the cache, no GetMapping).
 *
 *   bench_tfmapping [N]     N resources (default 10000); needs Go for the peer (scripts/setup.sh --tests) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_lines(const char *path, const char *prefix) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, prefix, strlen(prefix)) == 0) n++;
    fclose(f);
    return n;
}

/* Runs cimport convert with PATH=bin:/usr/bin:/bin and the given cache; returns its exit status and
 * fills wall seconds and peak RSS (KiB). */
static int run_convert(const char *cimport, const char *bin, const char *home, const char *cache, const char *state,
                       const char *out, double *secs, long *rss_kib) {
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        char path[8192];
        snprintf(path, sizeof path, "%s:/usr/bin:/bin", bin);
        setenv("PATH", path, 1);
        setenv("PULUMI_HOME", home, 1);
        setenv("XDG_CACHE_HOME", cache, 1);
        if (!freopen("/dev/null", "w", stderr)) _exit(127);
        execl(cimport, cimport, "convert", "--from", "terraform", state, "-o", out, "-q", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    wait4(pid, &st, 0, &ru);
    *secs = now_s() - t0;
    *rss_kib = ru.ru_maxrss;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    char self[4096];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0) return 1;
    self[l] = 0;
    *strrchr(self, '/') = 0; /* build/bench */
    char cimport[4200], peer_dir[4200], cmd[9000];
    snprintf(cimport, sizeof cimport, "%s/../cimport", self);
    snprintf(peer_dir, sizeof peer_dir, "%s/../grpcgo-bench", self);
    snprintf(cmd, sizeof cmd, "sh %s/tests/peers/grpcgo/build.sh %s >/dev/null 2>&1", SOURCE_DIR, peer_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_tfmapping: building the grpc-go peer failed (run scripts/setup.sh --tests)\n");
        return 1;
    }
    char tmp[] = "/tmp/cimport-bench-tfmap-XXXXXX";
    if (!mkdtemp(tmp)) return 1;
    char bin[4200], home[4200], calls[4200], state[4200], out[4200], p1[4300];
    snprintf(bin, sizeof bin, "%s/bin", tmp);
    snprintf(home, sizeof home, "%s/home", tmp);
    snprintf(calls, sizeof calls, "%s/calls.log", tmp);
    snprintf(state, sizeof state, "%s/big.tfstate", tmp);
    snprintf(out, sizeof out, "%s/imports.json", tmp);
    mkdir(bin, 0755);
    mkdir(home, 0755);
    const char *names[2] = {"acme", "multi"};
    for (int i = 0; i < 2; i++) {
        snprintf(p1, sizeof p1, "%s/pulumi-resource-%s", bin, names[i]);
        snprintf(cmd, sizeof cmd, "%s/pulumi-resource-peer", peer_dir);
        if (symlink(cmd, p1) != 0) return 1;
        snprintf(p1, sizeof p1, "%s/pulumi-resource-%s.json", bin, names[i]);
        FILE *f = fopen(p1, "w");
        if (!f) return 1;
        if (i == 0)
            fprintf(f,
                    "{\"version\":\"1.4.0\",\"mappings\":{\"acme\":\"%s/tests/fixtures/convert/mapping/acme.json\"},"
                    "\"getMappings\":[\"acme\"],\"callLog\":\"%s\"}\n",
                    SOURCE_DIR, calls);
        else
            fprintf(f,
                    "{\"version\":\"0.3.0\",\"mappings\":{\"gizmo\":\"%s/tests/fixtures/convert/plugins/gizmo.json\"},"
                    "\"getMappings\":[\"gizmo\"],\"callLog\":\"%s\"}\n",
                    SOURCE_DIR, calls);
        fclose(f);
    }
    /* The state: N managed resources over two providers, in groups of 100 count instances. */
    FILE *f = fopen(state, "w");
    if (!f) return 1;
    fputs("{\"version\":4,\"terraform_version\":\"1.9.0\",\"serial\":1,\"lineage\":\"bench\",\"resources\":[", f);
    int groups = (n + 99) / 100;
    for (int g = 0; g < groups; g++) {
        const char *type = g % 3 == 0 ? "gizmo_thing" : g % 3 == 1 ? "acme_widget" : "acme_gadget";
        const char *prov = g % 3 == 0 ? "example/gizmo" : "acme/acme";
        fprintf(f,
                "%s{\"mode\":\"managed\",\"type\":\"%s\",\"name\":\"r%d\",\"provider\":\"provider[\\\"registry."
                "terraform.io/%s\\\"]\",\"instances\":[",
                g ? "," : "", type, g, prov);
        for (int k = 0; k < 100 && g * 100 + k < n; k++)
            fprintf(f,
                    "%s{\"index_key\":%d,\"attributes\":{\"id\":\"id-%d-%d\",\"name\":\"n%d\",\"size_gb\":%d,"
                    "\"colour_code\":\"red\",\"tags\":{\"env\":\"prod\",\"team\":\"t%d\"}}}",
                    k ? "," : "", k, g, k, k, k, g);
        fputs("]}", f);
    }
    fputs("]}\n", f);
    fclose(f);
    printf("state: %d resources over 2 Terraform providers (acme by name, gizmo via GetMappings)\n", n);
    for (int run = 0; run < 2; run++) {
        unlink(calls);
        double secs;
        long rss;
        int rc = run_convert(cimport, bin, home, tmp, state, out, &secs, &rss);
        printf("%s cache: exit %d, %.2f s, peak RSS %.1f MiB, GetMapping calls %d, GetMappings calls %d\n",
               run == 0 ? "cold" : "warm", rc, secs, (double)rss / 1024.0, count_lines(calls, "GetMapping "),
               count_lines(calls, "GetMappings "));
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0) return 1;
    return 0;
}
