/* workspace.h — the Pulumi project, stack and backend a command runs in, found the way the Pulumi
 * CLI finds them:
 *
 * - the project: `Pulumi.yaml` (or `Pulumi.yml`) in the working directory or the nearest directory
 *   above it (`--cwd` changes the working directory first, as in `pulumi`);
 * - the stack: `--stack`, else the stack selected with `pulumi stack select`, which Pulumi keeps in
 *   `$PULUMI_HOME/workspaces/<project>-<sha1 of the Pulumi.yaml path>-workspace.json` (`{"stack": …}`);
 * - the backend: `PULUMI_BACKEND_URL`, else `backend.url` of Pulumi.yaml, else the `current` URL of
 *   `$PULUMI_HOME/credentials.json` (`$PULUMI_HOME` defaults to `~/.pulumi`).
 *
 * Nothing here writes. */
#ifndef CIMPORT_WORKSPACE_H
#define CIMPORT_WORKSPACE_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "specs/project.h"

typedef enum {
    BACKEND_NONE = 0, /* no backend configured at all */
    BACKEND_FILE,     /* DIY: file://PATH (or file://~) */
    BACKEND_POSTGRES, /* DIY: postgres://… / postgresql://… */
    BACKEND_CLOUD,    /* Pulumi Cloud: https://… / http://… */
    BACKEND_OTHER,    /* s3://, gs://, azblob://, …: cimport cannot write these */
} backend_kind_t;

typedef struct workspace {
    bool have_project;
    project_info_t project;   /* when have_project */
    const char *project_dir;  /* absolute directory of Pulumi.yaml */
    const char *project_file; /* absolute path of Pulumi.yaml */
    const char *pulumi_home;  /* $PULUMI_HOME or ~/.pulumi */

    const char *stack;           /* the stack's short name; NULL when none is selected */
    const char *stack_ref;       /* as given/selected (may be org/project/stack) */
    const char *stack_org;       /* the organization part when given, else NULL */
    const char *stack_source;    /* where it is selected: the workspace file's path or "PULUMI_STACK"; NULL: given
                                  * by the front end (--stack) */
    const char *stack_elsewhere; /* no stack selected here: the workspace file's selections for other backends
                                  * ("URL: STACK", joined), or NULL */

    const char *backend_url;    /* NULL when none */
    const char *backend_shown;  /* backend_url as printed: its passwords shown as xxxxx (backend_url_shown) */
    const char *backend_source; /* "PULUMI_BACKEND_URL", "Pulumi.yaml backend.url", the credentials file */
    backend_kind_t backend;
    const char *access_token;    /* for the backend URL, from PULUMI_ACCESS_TOKEN or credentials.json; may be NULL */
    const char *default_org;     /* PULUMI_DEFAULT_ORGANIZATION, else `pulumi org set-default`: config.json's
                                  * backends[backend_url].defaultOrg; or NULL */
    const char *set_default_org; /* one the user configured (PULUMI_DEFAULT_ORGANIZATION, `pulumi org
                                  * set-default`), not the service's opinion; or NULL */
} workspace_t;

/* Fills w from the current working directory (call after --cwd's chdir). stack_flag is --stack
 * (may be NULL). Returns false (with a diagnostic) only for files that exist but cannot be read. */
bool workspace_discover(arena_t *a, const char *stack_flag, workspace_t *w, diag_list_t *diags);
/* The same from the directory dir (a language server's workspace root, a program's directory), as
 * `pulumi` run in the project's directory finds it: a relative file:// backend URL of Pulumi.yaml is
 * taken against the project's directory, not the working directory. */
bool workspace_discover_in(arena_t *a, const char *dir, const char *stack_flag, workspace_t *w, diag_list_t *diags);

/* Whether w's stack reference (--stack or the selected one) fits the workspace: an ORG/PROJECT/STACK
 * naming another project than Pulumi.yaml's, or on a DIY backend another organization than
 * `organization`, is refused (false, with a diagnostic), as pulumi refuses it. A front end asks it
 * for every run that uses the workspace's stack (not for a stack export of its own, whose file
 * carries its stack and project). */
bool workspace_stack_ref_fits(arena_t *a, const workspace_t *w, diag_list_t *diags);
/* Whether project, the run's (given, or Pulumi.yaml's), is the workspace's Pulumi.yaml's project: a
 * run that imports into a stack of another project writes code for this program, whose `pulumi
 * preview` and `pulumi up` use its own project's stacks. False with a diagnostic naming both. A
 * front end asks it for every run that imports into the workspace's stack. */
bool workspace_project_fits(const workspace_t *w, const char *project, diag_list_t *diags);
/* The PROJECT of a stack reference ORG/PROJECT/STACK; NULL for STACK or ORG/STACK. */
const char *workspace_stack_ref_project(arena_t *a, const workspace_t *w);

/* Whether a run in w can import into the stack `stack` (NULL: none given or selected), and if
 * not, why — each front end says it in its own words. */
typedef enum {
    WORKSPACE_STACK_WRITABLE = 0,
    WORKSPACE_NO_PROJECT,    /* no Pulumi.yaml in the directory or above */
    WORKSPACE_NO_STACK,      /* no stack given or selected */
    WORKSPACE_NO_BACKEND,    /* no backend configured */
    WORKSPACE_BACKEND_OTHER, /* a backend cimport cannot write (w->backend, w->backend_url) */
} workspace_stack_status_t;
workspace_stack_status_t workspace_stack_status(const workspace_t *w, const char *stack);

/* The workspace settings file Pulumi keeps for a project file (for tests and messages). */
char *workspace_settings_path(arena_t *a, const char *pulumi_home, const char *project_name, const char *project_file);

const char *backend_kind_name(backend_kind_t k);
/* A backend URL as cimport prints it: the password of its user information and the values of its
 * password= and sslpassword= query parameters (libpq's), token= and access_token=, replaced by
 * xxxxx, as Go's url.Redacted shows a password; so is the user name alone of an http(s) URL (Pulumi
 * Cloud has no use for one: a token written as the user). Every message that names a backend URL,
 * or a request made to one, prints it so. NULL for NULL. */
const char *backend_url_shown(arena_t *a, const char *url);
backend_kind_t backend_kind_of(const char *url);

#endif
