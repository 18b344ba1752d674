/* tfstate.h — Terraform state: the state file (format version 4, Terraform 0.12 and later) and the
 * output of `terraform show -json` (format_version 0.x/1.x, `values.root_module`).
 *
 * Both are read into one model: resources (managed and data) with their module path, provider
 * address and instances, each instance with its attributes as JSON and the top-level attribute
 * names Terraform marked sensitive. Legacy v4 instances that only have `attributes_flat` (states
 * upgraded from Terraform 0.11) get their flatmap expanded into nested JSON. Versions 1–3 are
 * refused with the upgrade step; plan files and other JSON are refused as "not a state". */
#ifndef CIMPORT_TFSTATE_H
#define CIMPORT_TFSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

struct cJSON;

typedef struct tf_instance {
    const char *index_key;          /* NULL for a single instance; the key text for count/for_each */
    bool index_is_number;           /* count index (`-0`), else a for_each string key */
    const struct cJSON *attributes; /* JSON object, never NULL */
    const char **sensitive;         /* top-level attribute names Terraform marked sensitive */
    size_t n_sensitive, cap_sensitive;
    const char *deposed;      /* deposed object key (pending destroy), NULL for the current object */
    bool tainted;             /* status "tainted" (show -json: "tainted": true): its last apply failed part way */
    int schema_version;       /* the provider's schema version of the attributes (0 when absent) */
    const char *private_meta; /* `private`, base64 of the provider's meta JSON (timeouts...); NULL if none */
} tf_instance_t;

typedef struct tf_resource {
    const char *module; /* `module.a.module.b[0]`, NULL at the root */
    bool is_data;       /* mode "data" */
    const char *type;
    const char *name;
    const char *address;         /* `module.a.aws_s3_bucket.b` (without instance key) */
    const char *provider_source; /* `registry.terraform.io/hashicorp/aws`, or `aws` for legacy addresses */
    const char *provider_type;   /* `aws`: the last part of the source */
    const char *provider_alias;  /* `west` from `provider[...].west`, NULL if none */
    /* `module.m` from `module.m.provider[...]`: the module's own provider block (another configuration
     * than the root's); NULL for the root's (inherited by modules without their own) */
    const char *provider_module;
    tf_instance_t *instances;
    size_t n_instances;
} tf_resource_t;

typedef struct tf_state {
    const char *path;
    int version;                   /* 4 for a state file, 0 for `terraform show -json` */
    const char *format_version;    /* show -json only */
    const char *terraform_version; /* may be NULL */
    bool is_show_json;
    tf_resource_t *resources;
    size_t n_resources;
    struct cJSON *doc; /* owned; freed by tfstate_free */
} tf_state_t;

/* Parses a state. Errors (one diagnostic naming the file):
 *   "not a Terraform state: invalid JSON at line L, column C (is the file truncated?)"
 *   "Terraform state version N (written by Terraform V) is not supported; ..." (upgrade step)
 *   "a Terraform plan, not a state; ..."
 *   "not a Terraform state: it has neither `version` nor `format_version`; ..." */
tf_state_t *tfstate_parse(arena_t *a, const char *text, size_t len, const char *path, diag_list_t *diags);
tf_state_t *tfstate_load(arena_t *a, const char *path, diag_list_t *diags);
void tfstate_free(tf_state_t *s);
/* Whether text is JSON that looks like a Terraform state of any version or `terraform show -json`
 * output (cheap: looks at top-level keys only). */
bool tfstate_detect(const char *text, size_t len);
/* Whether the named top-level attribute of an instance is sensitive. */
bool tfstate_instance_sensitive(const tf_instance_t *inst, const char *attr);

#endif
