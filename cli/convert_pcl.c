/* convert_pcl.c — `cimport convert --from pcl FILE.pp --language L`: PCL in, program code out.
 *
 * The PCL is parsed, bound against the package schemas (so emitters know the type at every
 * position), and emitted in the asked language. PCL that cimport itself wrote round-trips exactly. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "cli/cli.h"
#include "cli/convert_pcl.h"
#include "specs/schema.h"
#include "splice/splice.h"

static void convert_pcl_help(FILE *f) {
    fputs("Usage:\n"
          "  cimport convert --from pcl FILE.pp --language LANG [--schema FILE|DIR]... [-o FILE]\n"
          "\n"
          "Turns a PCL program (as `cimport --language pcl` writes it) into program code.\n"
          "\n"
          "  -l, --language LANG  typescript, python, go, csharp, java, yaml or pcl\n"
          "  --schema PATH        package schema file or directory (repeatable); every package the program\n"
          "                       uses needs its schema\n"
          "  -o, --out FILE       write the code to FILE (atomically) instead of stdout\n"
          "  --max-input-size SIZE\n"
          "                       " CLI_MAX_INPUT_SIZE_HELP "\n"
          "  -h, --help           this help\n"
          "\n"
          "Exit codes: 0 converted; 2 bad usage or bad input (nothing written).\n",
          f);
}

bool cli_convert_is_pcl(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--from=pcl") == 0) return true;
        if (strcmp(argv[i], "--from") == 0 && i + 1 < argc && strcmp(argv[i + 1], "pcl") == 0) return true;
    }
    return false;
}

int cli_convert_pcl_main(int argc, char **argv) {
    static const struct option longopts[] = {
        {"from", required_argument, NULL, 'F'},
        {"language", required_argument, NULL, 'l'},
        {"schema", required_argument, NULL, 's'},
        {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"max-input-size", required_argument, NULL, 'M'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    lang_t lang = LANG_PCL;
    bool lang_set = false;
    diag_list_t diags;
    diag_list_init(&diags);
    schema_set_t *schemas = schema_set_new();
    int rc = EXIT_USAGE;
    char *code = NULL;
    pcl_program_t *prog = NULL;
    arena_t *a = arena_new();
    const char **schema_paths = NULL;
    size_t n_schemas = 0, cap_schemas = 0;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":l:o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'F': break; /* --from pcl: how we got here */
        case 'l':
            if (!lang_from_name(optarg, &lang)) {
                fprintf(stderr,
                        "cimport convert: unknown --language '%s' (use typescript, python, go, csharp, java, yaml or "
                        "pcl)\n",
                        optarg);
                goto done;
            }
            lang_set = true;
            break;
        case 's': /* loaded once every flag is read: --max-input-size may follow */
            schema_paths = arena_grow_array(a, schema_paths, &cap_schemas, n_schemas + 1, sizeof *schema_paths);
            schema_paths[n_schemas++] = optarg;
            break;
        case 'M':
            if (!cli_set_max_input_size(optarg)) {
                fprintf(stderr, "cimport convert: %s '%s'\n", CLI_MAX_INPUT_SIZE_USAGE, optarg);
                goto done;
            }
            break;
        case 'o': out = optarg; break;
        case 'h':
            convert_pcl_help(stdout);
            rc = EXIT_ALL_OK;
            goto done;
        default:
            fprintf(stderr, "cimport convert: unknown option or missing value: '%s'\n", argv[optind - 1]);
            convert_pcl_help(stderr);
            goto done;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "cimport convert: give exactly one PCL file to convert\n");
        convert_pcl_help(stderr);
        goto done;
    }
    if (!lang_set) {
        fprintf(stderr, "cimport convert: --language is required with --from pcl\n");
        goto done;
    }
    for (size_t i = 0; i < n_schemas; i++)
        schema_set_add_path(schemas, schema_paths[i], &diags);
    if (diag_has_errors(&diags)) goto done;
    const char *path = argv[optind];
    /* -o over the PCL file itself: fine for PCL (it is rewritten in canonical form), else it would be lost */
    if (out && lang != LANG_PCL && cli_same_file(out, path)) {
        fprintf(stderr,
                "cimport convert: -o names the PCL file %s: writing %s there would destroy the program; choose "
                "another output file\n",
                path, lang_name(lang));
        goto done;
    }
    /* -o named for another language: that language's code under the other's name */
    lang_t named;
    if (out && splice_lang_from_path(out, &named) && named != lang) {
        fprintf(stderr,
                "cimport convert: --language %s writes %s, but -o names a %s file (%s): name a %s file, or pass the "
                "file's language\n",
                lang_name(lang), lang_title(lang), lang_title(named), out, lang_title(lang));
        goto done;
    }
    size_t len;
    char *text = file_read_all(a, path, &len, &diags);
    if (!text) goto done;
    prog = pcl_parse(text, len, path, &diags);
    if (!prog) goto done;
    if (!pcl_bind(prog, schemas, &diags)) goto done;
    code = emit_program(prog, lang, &diags);
    if (!code) goto done;
    if (out) {
        if (!file_write_atomic(out, code, strlen(code), 0644, false, &diags)) goto done;
    } else {
        fputs(code, stdout);
    }
    rc = EXIT_ALL_OK;
done:
    for (diag_t *d = diags.head; d; d = d->next)
        fprintf(stderr, "%s: %s\n", diag_severity_name(d->severity), diag_format(&diags, d));
    free(code);
    pcl_program_free(prog);
    schema_set_free(schemas);
    diag_list_free(&diags);
    arena_free(a);
    return rc;
}
