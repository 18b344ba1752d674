/* project.c — reads the Pulumi project file (Pulumi.yaml) in a directory: its name, runtime, backend URL,
 * stack config directory and main. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "specs/project.h"

#include <errno.h>
#include <sys/stat.h>

#include "base/fileio.h"

/* Pulumi.yaml is a small mapping; we read the top-level `name` and `runtime` (a string, or a mapping
 * with `name`). */
bool project_read(arena_t *a, const char *dir, project_info_t *out, diag_list_t *diags) {
    memset(out, 0, sizeof *out);
    char *path = arena_sprintf(a, "%s/Pulumi.yaml", dir);
    struct stat st;
    if (stat(path, &st) != 0) {
        path = arena_sprintf(a, "%s/Pulumi.yml", dir);
        if (stat(path, &st) != 0) {
            /* Pulumi reads a project file in JSON too (its encoding.Exts), and then this directory is
             * the project; cimport does not read one, and taking a directory above for the project
             * would use another project's stack */
            path = arena_sprintf(a, "%s/Pulumi.json", dir);
            char advice[DIAG_ADVICE_MAX];
            if (diags && stat(path, &st) == 0)
                diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                         "a Pulumi project file in JSON, which cimport does not read (it reads Pulumi.yaml, and "
                         "would otherwise take a project above this one for it): write the project as "
                         "Pulumi.yaml (the same keys)%s",
                         diag_advice(advice, DIAG_ADVICE_JSON_PROJECT, NULL));
            return false;
        }
    }
    /* Read whole under the input caps: an oversized file or a FIFO that never delivers is an error. */
    size_t len = 0;
    char *text = file_read_all(a, path, &len, diags);
    if (!text) return false;
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    bool ok = yaml_parser_load(&p, &doc);
    yaml_parser_delete(&p);
    if (!ok) return false;
    out->path = path;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (root && root->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
            yaml_node_t *k = yaml_document_get_node(&doc, pr->key);
            yaml_node_t *v = yaml_document_get_node(&doc, pr->value);
            if (!k || k->type != YAML_SCALAR_NODE || !v) continue;
            const char *key = (const char *)k->data.scalar.value;
            if (strcmp(key, "name") == 0 && v->type == YAML_SCALAR_NODE) {
                out->name = arena_strdup(a, (const char *)v->data.scalar.value);
            } else if (strcmp(key, "main") == 0 && v->type == YAML_SCALAR_NODE && v->data.scalar.length) {
                out->main = arena_strdup(a, (const char *)v->data.scalar.value);
            } else if (v->type == YAML_SCALAR_NODE &&
                       (strcmp(key, "stackConfigDir") == 0 ||
                        /* the older spelling; `pulumi` reads it as stackConfigDir (a mapping is project config) */
                        (strcmp(key, "config") == 0 && !out->stack_config_dir))) {
                out->stack_config_dir = arena_strdup(a, (const char *)v->data.scalar.value);
            } else if (strcmp(key, "backend") == 0 && v->type == YAML_MAPPING_NODE) {
                for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                    yaml_node_t *kk = yaml_document_get_node(&doc, q->key);
                    yaml_node_t *vv = yaml_document_get_node(&doc, q->value);
                    if (kk && vv && kk->type == YAML_SCALAR_NODE && vv->type == YAML_SCALAR_NODE &&
                        strcmp((const char *)kk->data.scalar.value, "url") == 0)
                        out->backend_url = arena_strdup(a, (const char *)vv->data.scalar.value);
                }
            } else if (strcmp(key, "runtime") == 0) {
                if (v->type == YAML_SCALAR_NODE) {
                    out->runtime = arena_strdup(a, (const char *)v->data.scalar.value);
                } else if (v->type == YAML_MAPPING_NODE) {
                    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                        yaml_node_t *kk = yaml_document_get_node(&doc, q->key);
                        yaml_node_t *vv = yaml_document_get_node(&doc, q->value);
                        if (kk && vv && kk->type == YAML_SCALAR_NODE && vv->type == YAML_SCALAR_NODE &&
                            strcmp((const char *)kk->data.scalar.value, "name") == 0)
                            out->runtime = arena_strdup(a, (const char *)vv->data.scalar.value);
                    }
                }
            }
        }
    }
    yaml_document_delete(&doc);
    if (out->name && !project_name_valid(out->name) && diags)
        diag_add(diags, DIAG_ERROR, DIAG_INPUT, path, NULL,
                 "the project name '%s': project names may only contain alphanumerics, hyphens, underscores, and "
                 "periods, at most 100 (as `pulumi` refuses it): rename the project in %s",
                 out->name, path);
    return true;
}

bool project_name_valid(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 100 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0) return false;
    for (const char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.') return false;
    return true;
}
