/* functions.c — Pulumi PCL's built-in functions: each name, how many arguments it takes and what
 * kind of value it returns (Pulumi's pkg/codegen/pcl/functions.go and the hcl2 intrinsics).
 *
 * pcl_bind checks every call against this table, so a misspelt function or a call with the wrong
 * number of arguments is an error at its position; the emitters read the result kind to know a
 * call's shape (a string, a list, ...) without evaluating it. */
#include <stdlib.h>
#include <string.h>

#include "pcl/pcl.h"

/* Sorted by name (bsearch). PCL_FN_VARIADIC: no upper bound. */
static const pcl_function_t FUNCTIONS[] = {
    {"assetArchive", 1, 1, PCL_FN_ASSET},
    {"call", 2, 3, PCL_FN_ANY},
    {"can", 1, 1, PCL_FN_BOOL},
    {"cwd", 0, 0, PCL_FN_STRING},
    {"element", 2, 2, PCL_FN_ANY},
    {"entries", 1, 1, PCL_FN_LIST},
    {"fileArchive", 1, 1, PCL_FN_ASSET},
    {"fileAsset", 1, 1, PCL_FN_ASSET},
    {"filebase64", 1, 1, PCL_FN_STRING},
    {"filebase64sha256", 1, 1, PCL_FN_STRING},
    {"fromBase64", 1, 1, PCL_FN_STRING},
    {"getOutput", 2, 2, PCL_FN_ANY},
    {"invoke", 1, 3, PCL_FN_ANY},
    {"join", 2, 2, PCL_FN_STRING},
    {"length", 1, 1, PCL_FN_NUMBER},
    {"lookup", 2, 3, PCL_FN_ANY},
    {"max", 1, PCL_FN_VARIADIC, PCL_FN_NUMBER},
    {"mimeType", 1, 1, PCL_FN_STRING},
    {"min", 1, PCL_FN_VARIADIC, PCL_FN_NUMBER},
    {"notImplemented", 1, 1, PCL_FN_ANY},
    {"organization", 0, 0, PCL_FN_STRING},
    {"project", 0, 0, PCL_FN_STRING},
    {"pulumiResourceName", 1, 1, PCL_FN_STRING},
    {"pulumiResourceType", 1, 1, PCL_FN_STRING},
    {"range", 1, 2, PCL_FN_LIST},
    {"readDir", 1, 1, PCL_FN_LIST},
    {"readFile", 1, 1, PCL_FN_STRING},
    {"recover", 2, 2, PCL_FN_ANY},
    {"remoteArchive", 1, 1, PCL_FN_ASSET},
    {"remoteAsset", 1, 1, PCL_FN_ASSET},
    {"rootDirectory", 0, 0, PCL_FN_STRING},
    {"secret", 1, 1, PCL_FN_SAME},
    {"sha1", 1, 1, PCL_FN_STRING},
    {"singleOrNone", 1, 1, PCL_FN_ANY},
    {"split", 2, 2, PCL_FN_LIST},
    {"stack", 0, 0, PCL_FN_STRING},
    {"stringAsset", 1, 1, PCL_FN_ASSET},
    {"toBase64", 1, 1, PCL_FN_STRING},
    {"toJSON", 1, 1, PCL_FN_STRING},
    {"try", 1, PCL_FN_VARIADIC, PCL_FN_ANY},
    {"unsecret", 1, 1, PCL_FN_SAME},
};

static int fn_cmp(const void *key, const void *elem) {
    return strcmp(key, ((const pcl_function_t *)elem)->name);
}

const pcl_function_t *pcl_function_find(const char *name) {
    if (!name) return NULL;
    return bsearch(name, FUNCTIONS, sizeof FUNCTIONS / sizeof *FUNCTIONS, sizeof *FUNCTIONS, fn_cmp);
}

bool pcl_function_arity_ok(const pcl_function_t *f, size_t n_args) {
    return n_args >= f->min_args && (f->max_args == PCL_FN_VARIADIC || n_args <= f->max_args);
}

const char *pcl_function_arity(const pcl_function_t *f) {
    static const char *const counts[] = {"no arguments", "one argument", "two arguments", "three arguments"};
    if (f->max_args == PCL_FN_VARIADIC) return f->min_args == 1 ? "one argument or more" : "arguments";
    if (f->min_args == f->max_args) return f->min_args < 4 ? counts[f->min_args] : "arguments";
    if (f->min_args == 1 && f->max_args == 2) return "one or two arguments";
    if (f->min_args == 1 && f->max_args == 3) return "one to three arguments";
    if (f->min_args == 2 && f->max_args == 3) return "two or three arguments";
    return "arguments";
}
